import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverDir } from '../support/server-process.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/**
 * Runs `script` (a module body with `createLogger` in scope) in a process of its own, which
 * then stays alive unless the script exits: its lines must reach stdout without an exit. Its
 * stdout is a FIFO (blocking, as a pipe from a shell is) that this process starts reading only
 * after `unreadForMs`, or when asked (`startReading`) if that is `Infinity`, so a burst larger
 * than the pipe (64 KiB) keeps the child's write under way until then.
 */
function logInChild(
  script: string,
  { unreadForMs = 0, readerGone = false, nodeArgs = [] as string[] } = {},
) {
  const dir = mkdtempSync(path.join(tmpdir(), 'petstore-logger-'));
  const fifo = path.join(dir, 'stdout');
  execFileSync('mkfifo', [fifo]);
  const readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeEnd = openSync(fifo, constants.O_WRONLY);
  if (readerGone) closeSync(readEnd);
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...nodeArgs,
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { createLogger } = await import('./src/logger/index.ts');\n${script}\nsetInterval(() => {}, 60_000);`,
    ],
    { cwd: serverDir, stdio: ['ignore', writeEnd, 'pipe'] },
  );
  closeSync(writeEnd);
  let out = '';
  let err = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  /** The exit code, once the child has exited and its stderr is read to the end. */
  const closed = new Promise<number | null>((resolve) =>
    child.once('close', (code: number | null) => resolve(code)),
  );
  let reader: net.Socket | undefined;
  const startReading = () => {
    reader ??= new net.Socket({ fd: readEnd, readable: true, writable: false });
    reader.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  };
  const timer =
    Number.isFinite(unreadForMs) && !readerGone ? setTimeout(startReading, unreadForMs) : undefined;
  cleanups.push(() => {
    clearTimeout(timer);
    child.kill('SIGKILL');
    if (reader) reader.destroy();
    else if (!readerGone) closeSync(readEnd);
    rmSync(dir, { recursive: true, force: true });
  });
  const messages = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
  return { messages, stderr: () => err, closed, startReading };
}

/** What `closed` resolves to, or a note that the process is still running `ms` later. */
const exitWithin = (closed: Promise<number | null>, ms: number) =>
  Promise.race([
    closed,
    new Promise((resolve) => setTimeout(() => resolve(`still running ${ms / 1000} s later`), ms)),
  ]);

describe('the stdout logger', () => {
  it('writes a lone line without waiting for more lines or for the exit', async () => {
    const { messages } = logInChild(`createLogger('info').info('ready');`);
    await expect.poll(messages, { timeout: 4_000 }).toEqual(['ready']);
  });

  it('writes every line, in order, when lines come while a write is under way', async () => {
    // 1,000 lines (~75 KB) fill the unread pipe, so a write stays under way for 500 ms; the
    // later line's flush finds it busy, and the line must go out once it is done ('drain'),
    // not wait for the exit.
    const { messages } = logInChild(
      `
      const logger = createLogger('info');
      for (let i = 0; i < 1000; i += 1) logger.info('line ' + i);
      setTimeout(() => logger.info('later'), 50);
      `,
      { unreadForMs: 500 },
    );
    const expected = [...Array.from({ length: 1000 }, (_, i) => `line ${i}`), 'later'];
    await expect.poll(messages, { timeout: 4_000 }).toEqual(expected);
  });

  it('exits when nobody reads its stdout, dropping lines and saying so on stderr once', async () => {
    // A FIFO whose reader is gone: every write fails with EPIPE. The lines over 8 KiB start a
    // write, so the line after them waits behind it, and the process exits in the same turn:
    // the flush at exit is the first to see the pipe broken.
    const { stderr, closed } = logInChild(
      `
      const logger = createLogger('info');
      for (let i = 0; i < 200; i += 1) logger.info('line ' + i);
      logger.info('last');
      process.exit(0);
      `,
      { readerGone: true },
    );
    expect(await exitWithin(closed, 10_000)).toBe(0);
    expect(stderr()).toContain(
      'Standard output failed (EPIPE): log lines are dropped from now on.',
    );
    expect(stderr().match(/Standard output failed/g)).toHaveLength(1);
  }, 20_000);

  it('holds at most 16 MiB for a reader that stalls, drops lines past that, and says when it reads again', async () => {
    // 192 MiB of lines in 1 KiB lines, 1 MiB per turn, into a pipe nobody reads yet; then the
    // heap after a full collection, and a line every 50 ms.
    const { stderr, messages, startReading } = logInChild(
      `
      const logger = createLogger('info');
      const text = 'x'.repeat(1000);
      for (let turn = 0; turn < 192; turn += 1) {
        for (let i = 0; i < 1024; i += 1) logger.info(text);
        await new Promise((resolve) => setImmediate(resolve));
      }
      globalThis.gc();
      process.stderr.write('heap ' + process.memoryUsage().heapUsed + '\\n');
      let tick = 0;
      setInterval(() => logger.info('tick ' + (tick += 1)), 50);
      `,
      { unreadForMs: Infinity, nodeArgs: ['--expose-gc'] },
    );
    await expect.poll(() => /heap (\d+)/.exec(stderr())?.[1], { timeout: 30_000 }).toBeDefined();
    const heap = Number(/heap (\d+)/.exec(stderr())![1]);
    // Without the bound, all 192 MiB waited in memory.
    expect(heap).toBeLessThan(64 * 1024 * 1024);
    expect(stderr()).toContain(
      'Standard output is not being read (16 MiB of log lines wait for its reader): log lines are dropped until it catches up.',
    );
    startReading();
    await expect
      .poll(() => /being read again: (\d+) log lines were dropped/.exec(stderr())?.[1], {
        timeout: 20_000,
      })
      .toBeDefined();
    const dropped = Number(/being read again: (\d+) log lines/.exec(stderr())![1]);
    await expect
      .poll(() => messages().some((msg) => msg.startsWith('tick')), { timeout: 5_000 })
      .toBe(true);
    // Every line was either written or counted as dropped.
    const written = messages().filter((msg) => !msg.startsWith('tick')).length;
    expect(written + dropped).toBeGreaterThanOrEqual(192 * 1024);
    expect(written).toBeGreaterThan(0);
    expect(dropped).toBeGreaterThan(0);
  }, 60_000);

  it('exits, dropping the lines left, when its stdout reader has stalled for a second', async () => {
    // 1 MiB of lines fills the pipe, which nobody reads: a write waits for the reader, then the
    // process exits 1.5 s later.
    const { stderr, closed } = logInChild(
      `
      const logger = createLogger('info');
      for (let i = 0; i < 1024; i += 1) logger.info('x'.repeat(1000));
      setTimeout(() => {
        logger.info('last');
        process.exit(0);
      }, 1500);
      `,
      { unreadForMs: Infinity },
    );
    expect(await exitWithin(closed, 10_000)).toBe(0);
    expect(stderr()).toMatch(
      /Standard output is not being read: the last \d+ bytes of log lines are dropped at exit\./,
    );
  }, 20_000);

  it('exits within about a second when its non-blocking stdout fills just as it exits', async () => {
    // Touching process.stdout makes Node open the pipe non-blocking (libuv does so for pipes),
    // so a full pipe answers EAGAIN, which sonic-boom retries every 100 ms: at exit, for 1 s only.
    const { stderr, closed } = logInChild(
      `
      void process.stdout;
      const logger = createLogger('info');
      for (let i = 0; i < 1024; i += 1) logger.info('x'.repeat(1000));
      process.exit(0);
      `,
      { unreadForMs: Infinity },
    );
    expect(await exitWithin(closed, 10_000)).toBe(0);
    expect(stderr()).toContain(
      'Standard output failed (EAGAIN): log lines are dropped from now on.',
    );
  }, 20_000);
});
