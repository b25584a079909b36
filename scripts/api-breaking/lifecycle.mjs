// Deprecation with a sunset: once a deprecated operation's or parameter's `Sunset` date
// (RFC 8594) has passed, removing it is the announced end of its life, not a break.
// The date comes from `x-sunset` on the operation or parameter, else (operations) from the
// `Sunset` header one of its responses declares as a `const` or `example`.

/**
 * When a deprecated operation or parameter is sunset, or undefined if it is not deprecated
 * or names no date.
 *
 * @param {any} node The operation or parameter (resolved).
 * @param {(v: unknown) => { node: any }} resolve
 * @returns {Date | undefined}
 */
export function sunsetOf(node, resolve) {
  if (node?.deprecated !== true) return undefined;
  const dates = [node['x-sunset']];
  for (const raw of Object.values(node.responses ?? {})) {
    const response = resolve(raw).node;
    for (const [name, header] of Object.entries(response?.headers ?? {})) {
      if (name.toLowerCase() !== 'sunset') continue;
      const schema = resolve(resolve(header).node?.schema).node;
      dates.push(schema?.const, schema?.example, resolve(header).node?.example);
    }
  }
  for (const value of dates) {
    const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    if (!Number.isNaN(time)) return new Date(time);
  }
  return undefined;
}

/**
 * Whether removing `node` is allowed at `now`: it was deprecated with a sunset date that has
 * passed. Returns the sunset date when so.
 */
export function pastSunset(node, resolve, now) {
  const sunset = sunsetOf(node, resolve);
  return sunset !== undefined && sunset.getTime() <= now.getTime() ? sunset : undefined;
}
