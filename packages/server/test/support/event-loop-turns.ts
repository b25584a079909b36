/** Resolves in the next turn of the event loop (its check phase). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Calls each of `asks` from a timer callback of its own, all in one turn's timers phase, as the
 * requests one turn reads from its sockets: the promises' jobs run between the callbacks.
 */
export const inOneTurn = <T>(...asks: (() => Promise<T>)[]): Promise<T[]> =>
  Promise.all(asks.map((ask) => new Promise<T>((resolve) => setTimeout(() => resolve(ask()), 0))));
