// Whether one regular expression accepts a superset of another's strings, decided on their
// structure: both are split at top-level `|` into branches and each branch into atoms (a
// literal, `.`, a class such as `[a-z]` or `\d`, an anchor, or a group compared as text),
// each with its repetition range. A branch covers another when it has as many atoms and
// each atom's set of characters and repetition range contain the other's; a pattern covers
// another when each of the other's branches is covered by one of its own. Anything else
// (lookarounds, back-references, atoms that do not line up) is undecided: null.

const maxCodePoint = 0x10ffff;

/** Character ranges ([from, to] code points) of the class escapes. */
const classEscapes = {
  d: [[48, 57]],
  w: [
    [48, 57],
    [65, 90],
    [95, 95],
    [97, 122],
  ],
  s: [
    [9, 13],
    [32, 32],
    [160, 160],
    [0x1680, 0x1680],
    [0x2000, 0x200a],
    [0x2028, 0x2029],
    [0x202f, 0x202f],
    [0x205f, 0x205f],
    [0x3000, 0x3000],
    [0xfeff, 0xfeff],
  ],
};
const lineTerminators = [
  [10, 10],
  [13, 13],
  [0x2028, 0x2029],
];

/** Sorted, merged ranges. */
function normalise(ranges) {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  const out = [];
  for (const [from, to] of sorted) {
    const last = out.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

function complement(ranges) {
  const out = [];
  let next = 0;
  for (const [from, to] of normalise(ranges)) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= maxCodePoint) out.push([next, maxCodePoint]);
  return out;
}

/** Whether every range of `inner` lies inside `outer` (both normalised). */
function contains(outer, inner) {
  return inner.every(([from, to]) => outer.some(([f, t]) => f <= from && to <= t));
}

/** Reads one escape at `pattern[i] === '\\'`; returns its ranges and the next index. */
function readEscape(pattern, i) {
  const c = pattern[i + 1];
  if (c === undefined) return null;
  const lower = c.toLowerCase();
  if (lower in classEscapes) {
    const ranges = classEscapes[lower];
    return { ranges: c === lower ? ranges : complement(ranges), next: i + 2 };
  }
  const hex = (len) => {
    const digits = pattern.slice(i + 2, i + 2 + len);
    return /^[0-9a-fA-F]+$/.test(digits) && digits.length === len
      ? Number.parseInt(digits, 16)
      : null;
  };
  if (c === 'x' && hex(2) !== null) return { ranges: [[hex(2), hex(2)]], next: i + 4 };
  if (c === 'u' && hex(4) !== null) return { ranges: [[hex(4), hex(4)]], next: i + 6 };
  const controls = { n: 10, r: 13, t: 9, f: 12, v: 11, 0: 0 };
  if (c in controls) return { ranges: [[controls[c], controls[c]]], next: i + 2 };
  if (/[bBkp1-9cu]/i.test(c)) return null; // boundaries, back-references, properties: undecided
  const code = /** @type {number} */ (c.codePointAt(0));
  return { ranges: [[code, code]], next: i + 2 };
}

/** Reads a `[...]` class starting at `pattern[i] === '['`. */
function readClass(pattern, i) {
  let j = i + 1;
  const negated = pattern[j] === '^';
  if (negated) j++;
  const ranges = [];
  let first = true;
  while (j < pattern.length && (pattern[j] !== ']' || first)) {
    first = false;
    let item;
    if (pattern[j] === '\\') {
      item = readEscape(pattern, j);
      if (item === null) return null;
    } else {
      const code = /** @type {number} */ (pattern.codePointAt(j));
      item = { ranges: [[code, code]], next: j + String.fromCodePoint(code).length };
    }
    j = item.next;
    if (pattern[j] === '-' && pattern[j + 1] !== ']' && j + 1 < pattern.length) {
      let end;
      if (pattern[j + 1] === '\\') end = readEscape(pattern, j + 1);
      else {
        const code = /** @type {number} */ (pattern.codePointAt(j + 1));
        end = { ranges: [[code, code]], next: j + 1 + String.fromCodePoint(code).length };
      }
      if (end === null || item.ranges.length !== 1 || end.ranges.length !== 1) return null;
      ranges.push([item.ranges[0][0], end.ranges[0][1]]);
      j = end.next;
    } else ranges.push(...item.ranges);
  }
  if (pattern[j] !== ']') return null;
  return { ranges: negated ? complement(ranges) : normalise(ranges), next: j + 1 };
}

/** Reads a `( ... )` group as opaque text; lookarounds are undecided. */
function readGroup(pattern, i) {
  if (/^\(\?<?[=!]/.test(pattern.slice(i))) return null;
  let depth = 0;
  for (let j = i; j < pattern.length; j++) {
    if (pattern[j] === '\\') j++;
    else if (pattern[j] === '[') {
      const cls = readClass(pattern, j);
      if (cls === null) return null;
      j = cls.next - 1;
    } else if (pattern[j] === '(') depth++;
    else if (pattern[j] === ')' && --depth === 0)
      return { text: pattern.slice(i, j + 1), next: j + 1 };
  }
  return null;
}

/** Reads a quantifier at `i`: its [min, max] and the next index ([1, 1] when none). */
function readQuantifier(pattern, i) {
  const simple = { '*': [0, Infinity], '+': [1, Infinity], '?': [0, 1] }[pattern[i]];
  let range = simple;
  let next = i + 1;
  if (!range) {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
    if (!match) return { range: [1, 1], next: i };
    const min = Number(match[1]);
    range = [min, match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3])];
    next = i + match[0].length;
  }
  if (pattern[next] === '?') next++; // lazy: matches the same strings
  return { range, next };
}

/** The atoms of one branch, or null when undecided. */
function atomsOf(branch) {
  const atoms = [];
  let i = 0;
  while (i < branch.length) {
    const c = branch[i];
    let atom;
    if (c === '^' || c === '$') atom = { text: c, next: i + 1 };
    else if (c === '.') atom = { ranges: complement(lineTerminators), next: i + 1 };
    else if (c === '[') atom = readClass(branch, i);
    else if (c === '(') atom = readGroup(branch, i);
    else if (c === '\\') atom = readEscape(branch, i);
    else {
      const code = /** @type {number} */ (branch.codePointAt(i));
      atom = { ranges: [[code, code]], next: i + String.fromCodePoint(code).length };
    }
    if (atom === null) return null;
    const q = readQuantifier(branch, atom.next);
    atoms.push({ ...atom, range: q.range });
    i = q.next;
  }
  return atoms;
}

/** Top-level branches of a pattern (split at `|` outside groups and classes). */
function branchesOf(pattern) {
  const branches = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const cls = readClass(pattern, i);
      if (cls === null) return null;
      i = cls.next - 1;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      branches.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  branches.push(pattern.slice(start));
  const parsed = branches.map(atomsOf);
  return parsed.some((b) => b === null) ? null : parsed;
}

function atomCovers(outer, inner) {
  if (outer.range[0] > inner.range[0] || outer.range[1] < inner.range[1]) return false;
  if (outer.text !== undefined || inner.text !== undefined) return outer.text === inner.text;
  return contains(outer.ranges, inner.ranges);
}

function branchCovers(outer, inner) {
  return outer.length === inner.length && outer.every((atom, i) => atomCovers(atom, inner[i]));
}

/**
 * Whether every string `inner` matches is matched by `outer`: true, false (not shown by
 * structure, so treated as "not a superset" only when the reverse is shown), or null when
 * either pattern cannot be read.
 *
 * @example patternCovers('^[a-zA-Z]+$', '^[a-z]+$') // true
 * @example patternCovers('^\\d{3,5}$', '^\\d{3}$') // true
 */
export function patternCovers(outer, inner) {
  const o = branchesOf(outer);
  const i = branchesOf(inner);
  if (o === null || i === null) return null;
  return i.every((branch) => o.some((candidate) => branchCovers(candidate, branch)));
}
