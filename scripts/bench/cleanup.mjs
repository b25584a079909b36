// What an interrupted run must still undo: running targets, scratch databases, the temporary
// folder. Ctrl-C on a 25-minute run must not leave a million-row PostgreSQL database behind.

const pending = new Set();

/** Registers `close` until it has run; returns a function that runs it once and unregisters it. */
export function undoLater(close) {
  let done;
  const once = () => {
    pending.delete(once);
    done ??= Promise.resolve().then(close);
    return done;
  };
  pending.add(once);
  return once;
}

/** On SIGINT or SIGTERM: undo everything registered, newest first, then exit 130. */
export function undoOnSignal(report) {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, async () => {
      report(`${signal}: stopping the targets and dropping the scratch data`);
      for (const close of [...pending].reverse()) await close().catch(() => undefined);
      process.exit(130);
    });
  }
}
