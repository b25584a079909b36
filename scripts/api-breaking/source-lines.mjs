// Where a JSON pointer lands in a YAML (or JSON) source: the `yaml` package keeps each
// node's character range, and a LineCounter turns an offset into a line.
import { LineCounter, isNode, parseDocument } from 'yaml';
import { segmentsOf } from './findings.mjs';

/**
 * A function giving the 1-based line of a pointer in `text`, or of its nearest ancestor
 * present there (a merged or bundled node may not exist as written); undefined when none.
 *
 * @param {string} text The YAML or JSON source.
 * @returns {(ref: string) => number | undefined}
 * @example
 * const lineOf = lineFinder(await readFile('openapi/openapi.yaml', 'utf8'));
 * lineOf('#/components/schemas/Pet') // 987
 */
export function lineFinder(text) {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  return (ref) => {
    const segments = segmentsOf(ref);
    for (let n = segments.length; n > 0; n--) {
      const node = document.getIn(segments.slice(0, n).map(key), true);
      if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line;
    }
    return undefined;
  };
}

/** Sequence indexes are numbers in the document's own terms. */
function key(segment) {
  return /^\d+$/.test(segment) ? Number(segment) : segment;
}

/**
 * Adds `line` to each finding, from the source of the description it points into.
 * @param {import('./findings.mjs').Finding[]} findings
 * @param {{ before?: string, after?: string }} sources Source texts.
 */
export function locate(findings, sources) {
  const finders = {
    before: sources.before === undefined ? undefined : lineFinder(sources.before),
    after: sources.after === undefined ? undefined : lineFinder(sources.after),
  };
  for (const finding of findings) {
    const line = finders[finding.side]?.(finding.pointer);
    if (line !== undefined) finding.line = line;
  }
  return findings;
}
