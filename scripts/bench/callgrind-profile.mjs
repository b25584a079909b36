// Where a thread's instructions went, by function, from one of callgrind's dumps: the profile
// that `scripts/bench/instructions.mjs --profile DIR` writes beside its counts.
//
// Callgrind names the machine code V8 made at run time only by its address (`0x…`): the JIT
// writes no symbols. Node started with --perf-basic-prof writes a map of that code instead,
// /tmp/perf-<pid>.map (one line per piece of code: start, size and name, in hexadecimal), as
// Linux's `perf` reads it; the addresses are named from it here. V8 may free code and put other
// code at the same address later: a later line for an address wins, so a name can be that of
// the code that came after. A profile's figures are the instructions a function ran itself (its
// "self" cost, not what it called), which callgrind counts exactly; what a function and its
// callees cost together is not given, as callgrind follows V8's calls and returns badly.

/** V8's map of its run-time code: `{ starts, names, ends }`, sorted by start. */
export function parsePerfMap(text) {
  const byStart = new Map();
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/i.exec(line);
    if (match)
      byStart.set(Number.parseInt(match[1], 16), [Number.parseInt(match[2], 16), match[3]]);
  }
  const starts = [...byStart.keys()].sort((a, b) => a - b);
  return {
    starts,
    ends: starts.map((start) => start + byStart.get(start)[0]),
    names: starts.map((start) => byStart.get(start)[1]),
  };
}

/** The name of the code at `address`, or undefined. */
function nameAt(map, address) {
  let low = 0;
  let high = map.starts.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (map.starts[middle] <= address) low = middle + 1;
    else high = middle - 1;
  }
  return high >= 0 && address < map.ends[high] ? map.names[high] : undefined;
}

/**
 * The instructions each function ran itself in one dump of callgrind (written with
 * `--compress-strings=no`, so every line names its function), by name, JIT code named from
 * `perfMap` (parsePerfMap). A cost line right after a `calls=` line is the call's cost, which
 * belongs to the callee and is not counted.
 */
export function selfCosts(dump, perfMap) {
  const costs = new Map();
  let fn = '';
  let callCost = false;
  for (const line of dump.split('\n')) {
    if (line.startsWith('fn=')) {
      fn = line.slice(3);
      const address = /^0x([0-9a-f]+)$/.exec(fn);
      if (address)
        fn = nameAt(perfMap, Number.parseInt(address[1], 16)) ?? 'JIT code not in the map';
    } else if (line.startsWith('calls=')) {
      callCost = true;
    } else if (/^[0-9+*-]/.test(line)) {
      if (callCost) {
        callCost = false;
      } else {
        const cost = Number(line.split(' ')[1] ?? 0);
        costs.set(fn, (costs.get(fn) ?? 0) + cost);
      }
    }
  }
  return costs;
}

/**
 * A Markdown table of the `top` functions of `costs` (selfCosts), in instructions per request
 * and as a share of the thread's whole.
 */
export function formatProfile(costs, requests, top = 60) {
  const total = [...costs.values()].reduce((sum, cost) => sum + cost, 0);
  const rows = [...costs].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `${Math.round(total / requests).toLocaleString('en')} instructions per request in all; the ${rows.length} functions that ran the most themselves:`,
    '',
    '| instructions per request | share | function |',
    '| ---: | ---: | --- |',
    ...rows.map(
      ([name, cost]) =>
        `| ${Math.round(cost / requests).toLocaleString('en')} | ${((cost / total) * 100).toFixed(1)} % | ${name.replaceAll('|', '\\|')} |`,
    ),
  ].join('\n');
}
