/**
 * Where the stdout writer's batches go: a pipe or a socket through Node's own stream on it,
 * which waits for the reader to make room; a file or a terminal by synchronous writes.
 */
import { fstatSync, writeSync } from 'node:fs';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/** How long a synchronous write retries a refused write (EAGAIN) while the server runs. */
const EAGAIN_WAIT_MS = 1000;

/** What a sink tells the writer. */
export interface SinkEvents {
  /** A batch has been written in full: `bytes` of it. */
  written(bytes: number): void;
  /**
   * A terminal refused a batch, or the end of one (EAGAIN: it was made non-blocking, and is
   * paused or not read): the batch's `bytes` no longer wait, and `lines` lines of it are dropped.
   */
  refused(bytes: number, lines: number): void;
  /** A write failed (EPIPE: nobody reads any more; or any other error); nothing is written after. */
  failed(error: unknown): void;
}

/** Standard output, as the writer uses it: one batch at a time, and a last write at exit. */
export interface Sink {
  /**
   * Hands a batch of `bytes` bytes (UTF-8) over; `written` follows once it is all written, or
   * `refused` (a terminal) once what is left of it is dropped.
   */
  write(batch: string, bytes: number): void;
  /**
   * The process is exiting and the event loop will not run again: from now on `write` only
   * keeps its batch for `writeRestSync` (a write started now would report its outcome, an
   * EPIPE say, on a tick that never comes).
   */
  exiting(): void;
  /**
   * At exit: writes what was handed over and is not yet written, synchronously, retrying a
   * full pipe until `deadline` (`performance.now()` time). Returns the bytes left unwritten
   * then (0: all written); throws what a write failed with otherwise.
   */
  writeRestSync(deadline: number): number;
}

/** The sink for what file descriptor 1 is: a pipe or a socket, or anything else. */
export function stdoutSink(events: SinkEvents): Sink {
  const stat = fstatSync(1);
  return stat.isFIFO() || stat.isSocket() ? streamSink(events) : syncSink(events);
}

/**
 * A pipe or a socket, through `process.stdout`, the stream Node opens on it (non-blocking,
 * as for any Node program that writes to `process.stdout`). A write the pipe cannot take at
 * once waits in libuv, which goes on as soon as the reader makes room (epoll), so a reader
 * briefly slower than the lines loses none of them. sonic-boom on such a pipe slept a fixed
 * 100 ms after each write refused (`EAGAIN`): 8.4 MiB to a reader reading at most once a
 * millisecond took 6.5 s instead of 0.26 s, and lines were dropped that the reader would have
 * taken.
 *
 * One batch is under way at a time; those that come meanwhile wait here, and go out as one
 * write when it is done. So at exit, when the event loop no longer runs, what is not yet
 * written is known: the end of the batch under way that libuv still holds (its
 * `writeQueueSize`, the bytes of queued writes not yet taken), then the batches waiting here;
 * they are written synchronously, in order. That count is the batch's only while nothing else
 * is in the stream: when other code has written to `process.stdout` (`console.log`) and that
 * is still in the stream with the batch, the batch is counted as unwritten, and a newline ends
 * whatever part of it or of the other write went out before the waiting batches follow.
 */
function streamSink(events: SinkEvents): Sink {
  const stream = process.stdout as unknown as Socket & {
    _handle?: { writeQueueSize?: number } | null;
  };
  stream.on('error', (error) => events.failed(error));
  let underWay: string | undefined;
  let waiting: string[] = [];
  let waitingBytes = 0;
  let exiting = false;

  const send = () => {
    if (waiting.length === 0) return;
    const batch = waiting.length === 1 ? waiting[0]! : waiting.join('');
    const bytes = waitingBytes;
    waiting = [];
    waitingBytes = 0;
    underWay = batch;
    stream.write(batch, (error) => {
      underWay = undefined;
      if (error) return events.failed(error);
      events.written(bytes);
      send();
    });
  };

  return {
    write(batch, bytes) {
      waiting.push(batch);
      waitingBytes += bytes;
      if (underWay === undefined && !exiting) send();
    },
    exiting() {
      exiting = true;
    },
    writeRestSync(deadline) {
      const rest = Buffer.from(waiting.join(''));
      waiting = [];
      waitingBytes = 0;
      // No batch under way, or nothing left in the stream (the batch is written, its callback
      // not yet called): the waiting batches are all that is left.
      if (underWay === undefined || stream.writableLength === 0) {
        return writeAllSync(rest, deadline);
      }
      const bytes = Buffer.from(underWay);
      const unwritten = stream._handle?.writeQueueSize;
      if (stream.writableLength === underWay.length && typeof unwritten === 'number') {
        return writeAllSync(
          Buffer.concat([bytes.subarray(bytes.length - unwritten), rest]),
          deadline,
        );
      }
      // Another write is in the stream beside the batch (or the stream was destroyed): how much
      // of the batch went out is unknown, so it is counted as unwritten rather than written
      // twice, and a newline ends whatever part of it went out.
      return bytes.length + writeAllSync(Buffer.concat([newline, rest]), deadline);
    },
  };
}

const newline = Buffer.from('\n');

/** A millisecond's sleep between two writes a full pipe refused. */
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Writes `buffer` to standard output until done or `deadline`; returns the bytes left. */
function writeAllSync(buffer: Buffer, deadline: number): number {
  return buffer.length - writeFromSync(buffer, 0, deadline);
}

/**
 * Writes `buffer` from `offset` on to standard output, retrying a refused write (EAGAIN) every
 * millisecond until done or `deadline` (tried once when that has passed); returns the offset
 * reached.
 */
function writeFromSync(buffer: Buffer, offset: number, deadline: number): number {
  while (offset < buffer.length) {
    try {
      offset += writeSync(1, buffer, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      if (performance.now() >= deadline) break;
      Atomics.wait(sleeper, 0, 0, 1);
    }
  }
  return offset;
}

/**
 * A file or a terminal, written synchronously, as pino writes by default and as Node writes to
 * a terminal: a batch (about 8 KiB under load) costs the event loop one system call (into the
 * page cache, for a file), and nothing is ever under way at exit, so the last lines land whole
 * and in order. In the benchmark, which logs to a file, this was cheaper than sonic-boom's
 * writes through the thread pool (1.09× list 20, 1.05× creates; Node.js 24.21.0). A
 * terminal whose output is paused (Ctrl-S) holds the server until it is resumed, as it holds
 * any program that writes to it.
 *
 * A terminal that another program has made non-blocking refuses writes instead (EAGAIN), while
 * it is paused or nobody reads it. A refused write is retried for a second, holding the event
 * loop; what is still refused then is dropped, and from then on each batch is tried once,
 * without waiting, and dropped if refused, until one goes out: then the terminal takes writes
 * again, and batches are written as before (a batch taken in part waits up to a second for its
 * rest). A line cut off part way by a refusal is ended by a newline before the next batch.
 */
function syncSink(events: SinkEvents): Sink {
  /** The terminal refused the last batch: the next one is tried once, without waiting. */
  let refusing = false;
  /** What went out last ends part way through a line. */
  let torn = false;
  return {
    write(batch, bytes) {
      const start = torn ? 1 : 0;
      const buffer = Buffer.from(torn ? `\n${batch}` : batch);
      let offset: number;
      try {
        const now = performance.now();
        offset = writeFromSync(buffer, 0, refusing ? now : now + EAGAIN_WAIT_MS);
        // Taken in part: the terminal is taking writes again, and the rest may wait for it.
        if (refusing && offset > 0 && offset < buffer.length) {
          offset = writeFromSync(buffer, offset, performance.now() + EAGAIN_WAIT_MS);
        }
      } catch (error) {
        return events.failed(error);
      }
      if (offset > 0) torn = buffer[offset - 1] !== newlineByte;
      refusing = offset < buffer.length;
      if (!refusing) return events.written(bytes);
      // A line whose text went out and whose newline did not is whole once the next batch's
      // leading newline ends it: not dropped.
      const ended = offset > start && buffer[offset] === newlineByte ? 1 : 0;
      events.refused(bytes, countLines(buffer.subarray(Math.max(offset, start))) - ended);
    },
    exiting: () => {},
    writeRestSync: () => 0,
  };
}

const newlineByte = 0x0a;

/** The lines of `bytes` (each ends with a newline), whole or ended part way. */
function countLines(bytes: Buffer): number {
  let lines = 0;
  for (let at = bytes.indexOf(newlineByte); at !== -1; at = bytes.indexOf(newlineByte, at + 1))
    lines += 1;
  return lines;
}
