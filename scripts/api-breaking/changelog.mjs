// The changelog: every finding of a comparison, grouped by operation and classified, as
// data (for --json) and as Markdown (openapi/CHANGELOG.md and the docs' Changes page).

/** Headings of each kind, in the order they are listed. */
export const kindTitles = {
  breaking: 'Breaking',
  review: 'To review',
  'non-breaking': 'Non-breaking',
  documentation: 'Documentation only',
};

/**
 * @typedef {object} ChangelogEntry
 * @property {import('./findings.mjs').Kind} kind
 * @property {string} rule
 * @property {string} text The change, without its operation.
 * @property {string[]} pointers Where, one per place it was found.
 */

/**
 * @typedef {object} Changelog
 * @property {string} from `info.version` of the older description.
 * @property {string} to `info.version` of the newer one.
 * @property {Record<import('./findings.mjs').Kind, number>} counts Entries of each kind.
 * @property {{ group: string, entries: ChangelogEntry[] }[]} groups `API` first, then
 *   operations in the order the descriptions list them.
 */

/**
 * Groups a comparison's findings. Changes that differ only by response status (a header
 * added to every response) become one entry naming the statuses.
 *
 * @param {import('./compare.mjs').Report} report
 * @returns {Changelog}
 * @example
 * const changelog = buildChangelog(findBreakingChanges(released, working));
 * console.log(renderChangelog(changelog));
 */
export function buildChangelog(report) {
  /** @type {Map<string, Map<string, ChangelogEntry & { statuses: string[] }>>} */
  const groups = new Map();
  for (const finding of report.findings) {
    const entries = groups.get(finding.group) ?? new Map();
    groups.set(finding.group, entries);
    let text = finding.message.startsWith(finding.group)
      ? finding.message.slice(finding.group.length).replace(/^:?\s*/, '')
      : finding.message;
    const perStatus = /^response (\S+?)(:| )(.*)$/.exec(text);
    const status = perStatus?.[1];
    if (perStatus) text = `${perStatus[2] === ':' ? ': ' : ''}${perStatus[3].trim()}`;
    const key = `${finding.kind} ${finding.rule} ${text}`;
    const entry = entries.get(key) ?? {
      kind: finding.kind,
      rule: finding.rule,
      text,
      pointers: [],
      statuses: [],
    };
    entries.set(key, entry);
    if (!entry.pointers.includes(finding.pointer)) entry.pointers.push(finding.pointer);
    if (status !== undefined && !entry.statuses.includes(status)) entry.statuses.push(status);
  }
  const order = Object.keys(kindTitles);
  const counts = Object.fromEntries(order.map((kind) => [kind, 0]));
  const list = [...groups]
    .sort(([x], [y]) => Number(y === 'API') - Number(x === 'API'))
    .map(([group, entries]) => ({
      group,
      entries: [...entries.values()]
        .map(({ statuses, text, ...entry }) => {
          counts[entry.kind]++;
          const where =
            statuses.length === 0
              ? ''
              : `response${statuses.length > 1 ? 's' : ''} ${statuses.join(', ')}`;
          const joined =
            where === '' ? text : text.startsWith(':') ? `${where}${text}` : `${where} ${text}`;
          return { ...entry, text: joined };
        })
        .sort((x, y) => order.indexOf(x.kind) - order.indexOf(y.kind)),
    }));
  return {
    from: report.beforeVersion,
    to: report.afterVersion,
    counts: /** @type {any} */ (counts),
    groups: list,
  };
}

/**
 * The changelog as Markdown.
 *
 * @param {Changelog} changelog
 * @param {{ heading?: number, source?: string }} [options] `heading`: the level of the
 *   title (operations one below); `source`: a line saying what it was made from.
 */
export function renderChangelog(changelog, { heading = 1, source } = {}) {
  const h = (level) => '#'.repeat(heading + level);
  const lines = [`${h(0)} Changes from ${changelog.from} to ${changelog.to}`, ''];
  if (source) lines.push(source, '');
  const summary = Object.entries(kindTitles)
    .map(([kind, title]) => `${changelog.counts[kind]} ${title.toLowerCase()}`)
    .join(', ');
  lines.push(`${summary}.`, '');
  for (const { group, entries } of changelog.groups) {
    lines.push(`${h(1)} ${group === 'API' ? 'The whole API' : `\`${group}\``}`, '');
    for (const [kind, title] of Object.entries(kindTitles)) {
      const ofKind = entries.filter((e) => e.kind === kind);
      if (ofKind.length === 0) continue;
      lines.push(`${title}:`, '');
      for (const entry of ofKind) lines.push(`- ${entry.text}`);
      lines.push('');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
