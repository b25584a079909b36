/**
 * Standard output for the JSON log lines: batched, asynchronous, and bounded, so that a log
 * reader that is slow, stalled or gone costs the server log lines, never its memory, its
 * requests or its exit.
 */
import { performance } from 'node:perf_hooks';
import type { DestinationStream } from 'pino';
import sonicBoom from 'sonic-boom';

// A CommonJS module whose export is the class, which also carries itself as `SonicBoom`.
const { SonicBoom } = sonicBoom;

/** Log lines reach standard output at most this often (sooner when 8 KiB gather). */
const LOG_BATCH_MS = 20;
/** A batch this large is written at once. */
const LOG_BATCH_CHARACTERS = 8 * 1024;
/** Bytes handed to standard output and not yet taken by its reader, at most; past it, lines are dropped. */
const LOG_BACKLOG_BYTES = 16 * 1024 * 1024;
/** At exit, a reader that has taken nothing for this long is stalled: the lines left are dropped. */
const STALLED_READER_MS = 1000;

/** What the writer says on stderr, one line each time its state changes. */
const stdoutNotices = {
  failed: (reason: string) =>
    `Standard output failed (${reason}): log lines are dropped from now on.`,
  behind: () =>
    `Standard output is not being read (${LOG_BACKLOG_BYTES / 1024 / 1024} MiB of log lines wait for its reader): log lines are dropped until it catches up.`,
  caughtUp: (dropped: number) =>
    `Standard output is being read again: ${dropped} log lines were dropped.`,
  stalledAtExit: (bytes: number) =>
    `Standard output is not being read: the last ${bytes} bytes of log lines are dropped at exit.`,
};

/**
 * Standard output written asynchronously (sonic-boom, pino's writer), in batches: a log line
 * costs the request an array push, and the lines gathered go out as one string in one write, at
 * the end of the event-loop turn when the last batch was at least {@link LOG_BATCH_MS} ago, else
 * once that much time has passed (a write wakes a thread of the pool, which costs more than the
 * line). Past 8 KiB the batch goes at once. A batch that comes while a write is under way waits
 * in sonic-boom, which writes it when that write is done. Lines are joined here, not appended
 * to sonic-boom's buffer one by one: it measures its buffered string on every append, which
 * flattened the whole batch per line (the server's largest allocation per request, ~6 KB).
 * What is still gathered when the process exits is written synchronously then; a `kill -9`
 * loses what was not yet written, never a response.
 *
 * When the reader falls behind:
 * - **Slow or stalled** (a pipe whose reader has stopped reading): once
 *   {@link LOG_BACKLOG_BYTES} wait for it, batches are dropped until it has taken all that
 *   waited, with a line on stderr when dropping starts and one with the count when it ends.
 *   Without the bound, every line waited in memory for as long as the reader stalled.
 * - **Stalled at exit**: if the reader has taken nothing for {@link STALLED_READER_MS}, the
 *   lines left are dropped, said on stderr, and the process exits. Otherwise they are written
 *   then, retrying EAGAIN (every 100 ms) for at most that long.
 * - **Gone or failing** (EPIPE: nobody reads it any more; or any other error): lines are
 *   dropped from then on, stderr says so once, and the server goes on serving. sonic-boom 5 is
 *   used directly rather than through `pino.destination`, whose sonic-boom 4 retried such a
 *   write every 100 ms forever in the flush at exit, so a server whose log reader had gone never
 *   exited, on SIGTERM or otherwise.
 */
export function stdoutWriter(): DestinationStream {
  // Node opens standard output, when it is a pipe or a socket, in non-blocking mode (libuv), as
  // it does in every Node program that writes to `process.stdout`. Then a write to a reader that
  // has stalled answers EAGAIN instead of blocking the pool thread that runs it: `process.exit`
  // waits for that thread, so a blocked write held the exit for as long as the reader stalled.
  // The cost: sonic-boom waits a fixed 100 ms after each EAGAIN, so a reader slower than the
  // lines come drops lines sooner than on a blocking pipe. A file or a terminal is left as it is.
  void process.stdout;
  // stderr may have gone as well (one pipe for both, a closed terminal): a notice that cannot
  // be written is lost, rather than an unhandled 'error' ending the process.
  process.stderr.on('error', () => {});

  let exitDeadline = Number.POSITIVE_INFINITY;
  const destination = new SonicBoom({
    fd: 1,
    sync: false,
    // EAGAIN (a non-blocking pipe, full): retried every 100 ms, but at exit only until the deadline.
    retryEAGAIN: () => performance.now() < exitDeadline,
  });
  const notice = (line: string) => process.stderr.write(`${line}\n`);

  let lines: string[] = [];
  let characters = 0;
  let queued = false;
  let lastBatch = Number.NEGATIVE_INFINITY;
  let failed = false;
  /** Bytes handed to sonic-boom and not yet written, and since when the reader took none. */
  let backlog = 0;
  let waitingSince = 0;
  /** Lines dropped since the backlog reached its bound, or -1 while it has not. */
  let dropped = -1;

  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    lines = [];
    notice(stdoutNotices.failed((error as { code?: string } | null)?.code ?? String(error)));
  };
  destination.on('error', fail);
  destination.on('write', (bytes: number) => {
    backlog -= bytes;
    waitingSince = performance.now();
  });

  /** Hands the gathered lines to sonic-boom, or drops them while the backlog is full. */
  const flush = () => {
    queued = false;
    if (failed || lines.length === 0) return;
    lastBatch = performance.now();
    const count = lines.length;
    const batch = lines.join('');
    lines = [];
    characters = 0;
    if (dropped >= 0 && backlog > 0) {
      dropped += count;
      return;
    }
    if (dropped >= 0) {
      notice(stdoutNotices.caughtUp(dropped));
      dropped = -1;
    }
    if (backlog === 0) waitingSince = lastBatch;
    backlog += Buffer.byteLength(batch);
    destination.write(batch);
    if (backlog >= LOG_BACKLOG_BYTES) {
      dropped = 0;
      notice(stdoutNotices.behind());
    }
  };

  process.once('exit', () => {
    flush();
    if (failed || backlog === 0) return;
    const now = performance.now();
    if (now - waitingSince >= STALLED_READER_MS) {
      failed = true;
      notice(stdoutNotices.stalledAtExit(backlog));
      return;
    }
    exitDeadline = now + STALLED_READER_MS;
    try {
      destination.flushSync();
    } catch (error) {
      fail(error);
    }
  });

  return {
    write(line: string) {
      if (failed) return;
      lines.push(line);
      characters += line.length;
      if (characters >= LOG_BATCH_CHARACTERS) return flush();
      if (queued) return;
      queued = true;
      const wait = lastBatch + LOG_BATCH_MS - performance.now();
      if (wait > 0) setTimeout(flush, wait);
      else setImmediate(flush);
    },
  };
}
