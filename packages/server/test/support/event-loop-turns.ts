/** Resolves in the next turn of the event loop (its check phase). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Calls each of `asks` from a callback of its own, all in one turn's check phase, as the
 * requests one turn reads from its sockets: the promises' jobs run between the callbacks, and
 * what they defer to the end of the turn (`setImmediate`) runs in the next one. Immediates,
 * not 0 ms timers: timers made across a millisecond boundary can fall due in different turns
 * (seen once in CI: two groups for three creates).
 */
export const inOneTurn = <T>(...asks: (() => Promise<T>)[]): Promise<T[]> =>
  Promise.all(asks.map((ask) => new Promise<T>((resolve) => setImmediate(() => resolve(ask())))));
