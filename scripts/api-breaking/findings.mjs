// What the comparison reports: one finding per change, classified by what it does to an
// existing consumer, with where it is (a JSON pointer, and a line once located) and what
// would make it compatible.

/**
 * `breaking` and `review` fail the gate; `review` means the checker could not decide (a
 * changed regular expression, a keyword it does not model) and a human must look.
 * @typedef {'breaking' | 'review' | 'non-breaking' | 'documentation'} Kind
 */

/**
 * @typedef {object} Finding
 * @property {string} rule Stable rule id, e.g. `request-property-required`.
 * @property {Kind} kind
 * @property {string} group What the change belongs to: `GET /pets`, `webhook petAdded`, `API`.
 * @property {string} message `<where>: <what changed>`, e.g.
 *   `POST /pets request body.name: \`maxLength\` tightened from 255 to 100`.
 * @property {string} [fix] What would make the change compatible.
 * @property {string} pointer JSON pointer (RFC 6901, `#/...`) to the changed node, in the
 *   working description when it still has the node, else in the released one.
 * @property {'before' | 'after'} side Which description `pointer` points into.
 * @property {number} [line] 1-based line of `pointer` in that description's YAML source.
 */

/** The kinds that fail the gate. */
export const blockingKinds = new Set(['breaking', 'review']);

/** Whether a finding fails the gate. */
export function blocks(finding) {
  return blockingKinds.has(finding.kind);
}

/**
 * A JSON pointer from path segments.
 * @example pointer(['paths', '/pets', 'get']) // '#/paths/~1pets/get'
 */
export function pointer(segments) {
  return `#${segments.map((s) => `/${String(s).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')}`;
}

/** The path segments of a JSON pointer (`#/a/b` or `/a/b`). */
export function segmentsOf(ref) {
  const body = ref.replace(/^#/, '');
  if (body === '') return [];
  return body
    .slice(1)
    .split('/')
    .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'));
}

/**
 * Collects findings for one comparison.
 *
 * @returns {{ findings: Finding[], report: (f: Omit<Finding, 'pointer' | 'side'> & { at: { before?: (string|number)[], after?: (string|number)[] } }) => void }}
 */
export function collector() {
  /** @type {Finding[]} */
  const findings = [];
  const seen = new Set();
  return {
    findings,
    report({ at, fix, ...rest }) {
      const side = at.after ? 'after' : 'before';
      const finding = { ...rest, pointer: pointer(at.after ?? at.before ?? []), side };
      if (blocks(finding) && fix) finding.fix = fix;
      const key = `${finding.group}\u0000${finding.message}\u0000${finding.kind}`;
      if (seen.has(key)) return;
      seen.add(key);
      findings.push(finding);
    },
  };
}
