/**
 * Standard output for the JSON log lines: batched, asynchronous, and bounded, so that a log
 * reader that is slow, stalled or gone costs the server log lines, never its memory, its
 * requests or its exit.
 */
import { performance } from 'node:perf_hooks';
import type { DestinationStream } from 'pino';
import { stdoutSink } from './stdout-sinks.js';

/** Log lines reach standard output at most this often (sooner when 8 KiB gather). */
const LOG_BATCH_MS = 20;
/** A batch this large is written at once. */
const LOG_BATCH_CHARACTERS = 8 * 1024;
/**
 * Bytes handed to standard output and not yet taken by its reader, at most (a batch larger by
 * itself goes out when nothing waits); past it, lines are dropped.
 */
const LOG_BACKLOG_BYTES = 16 * 1024 * 1024;
/** At exit, the lines left wait this long at most for a reader that does not take them. */
const EXIT_WAIT_MS = 1000;

/** What the writer says on stderr, one line each time its state changes. */
const stdoutNotices = {
  failed: (reason: string) =>
    `Standard output failed (${reason}): log lines are dropped from now on.`,
  behind: () =>
    `Standard output is not being read (${LOG_BACKLOG_BYTES / 1024 / 1024} MiB of log lines wait for its reader): log lines are dropped until it catches up.`,
  caughtUp: (dropped: number) =>
    `Standard output is being read again: ${dropped} log lines were dropped.`,
  droppedAtExit: (dropped: number) =>
    `Standard output had not caught up at exit: ${dropped} log lines were dropped.`,
  stalledAtExit: (bytes: number) =>
    `Standard output is not being read: the last ${bytes} bytes of log lines are dropped at exit.`,
  refused: () =>
    'Standard output refuses writes (EAGAIN: a non-blocking terminal, paused or not read): log lines are dropped until it takes them again.',
  takenAgain: (dropped: number) =>
    `Standard output takes writes again: ${dropped} log lines were dropped.`,
  refusedAtExit: (dropped: number) =>
    `Standard output still refused writes at exit: ${dropped} log lines were dropped.`,
};

/**
 * Standard output written in batches: a log line costs the request an array push, and the
 * lines gathered go out as one string in one write, at the end of the event-loop turn when the
 * last batch was at least {@link LOG_BATCH_MS} ago, else once that much time has passed (a
 * write, a system call, costs more than a line). Past 8 KiB the batch goes at once. The sink
 * (`stdout-sinks.ts`) writes it: to a pipe or socket asynchronously, through Node's stream on
 * it, one batch at a time, those that come meanwhile waiting there; to a file or terminal
 * synchronously. Lines are joined here, once per batch: sonic-boom, which wrote them before,
 * measured its buffered string on every appended line, which flattened the whole batch per
 * line (the server's largest allocation per request, ~6 KB). What is not yet written when the
 * process exits is written synchronously then; a `kill -9` loses it, never a response.
 *
 * When the reader falls behind:
 * - **Slow**: a pipe's writes wait for the reader to make room, as long as it takes.
 * - **Stalled** (a pipe whose reader has stopped reading): a batch that would take what waits
 *   for it past {@link LOG_BACKLOG_BYTES} is dropped, and so is every batch after it until the
 *   reader has taken all that waited, with a line on stderr when dropping starts and one with
 *   the count when it ends. Without the bound, every line waited in memory for as long as the
 *   reader stalled.
 * - **At exit**: what is left is written, waiting at most {@link EXIT_WAIT_MS} for a reader that
 *   does not take it; what is still left then is dropped, said on stderr, and the process exits.
 * - **Refused** (EAGAIN from a terminal another program made non-blocking, while it is paused
 *   or not read): after a second, the lines refused are dropped until the terminal takes lines
 *   again, with a line on stderr when dropping starts and one with the count when it ends (the
 *   sink, `syncSink`).
 * - **Gone or failing** (EPIPE: nobody reads it any more; or any other error): lines are
 *   dropped from then on, stderr says so once, and the server goes on serving.
 */
export function stdoutWriter(): DestinationStream {
  // stderr may have gone as well (one pipe for both, a closed terminal): a notice that cannot
  // be written is lost, rather than an unhandled 'error' ending the process.
  process.stderr.on('error', () => {});
  const notice = (line: string) => process.stderr.write(`${line}\n`);

  let lines: string[] = [];
  let characters = 0;
  let queued = false;
  let lastBatch = Number.NEGATIVE_INFINITY;
  let failed = false;
  /** Bytes handed to the sink and not yet written. */
  let backlog = 0;
  /** Lines dropped since a batch did not fit under the backlog's bound, or -1 while none has. */
  let dropped = -1;
  /** Lines dropped since the terminal refused a batch, or -1 while it takes them. */
  let refused = -1;

  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    lines = [];
    notice(stdoutNotices.failed((error as { code?: string } | null)?.code ?? String(error)));
  };
  const sink = stdoutSink({
    written(bytes) {
      backlog -= bytes;
      if (refused < 0) return;
      notice(stdoutNotices.takenAgain(refused));
      refused = -1;
    },
    refused(bytes, lines) {
      backlog -= bytes;
      if (refused < 0) notice(stdoutNotices.refused());
      refused = Math.max(refused, 0) + lines;
    },
    failed: fail,
  });

  /** Hands the gathered lines to the sink, or drops them while the backlog is full. */
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
    const bytes = Buffer.byteLength(batch);
    if (backlog > 0 && backlog + bytes > LOG_BACKLOG_BYTES) {
      // The batch that would take the backlog past its bound is the first one dropped. A batch
      // over the bound by itself (a huge line) still goes out when nothing waits.
      dropped = count;
      notice(stdoutNotices.behind());
      return;
    }
    backlog += bytes;
    sink.write(batch, bytes);
  };

  process.once('exit', () => {
    sink.exiting();
    flush();
    if (failed) return;
    if (dropped > 0) notice(stdoutNotices.droppedAtExit(dropped));
    if (refused >= 0) notice(stdoutNotices.refusedAtExit(refused));
    if (backlog === 0) return;
    try {
      const left = sink.writeRestSync(performance.now() + EXIT_WAIT_MS);
      if (left > 0) notice(stdoutNotices.stalledAtExit(left));
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
