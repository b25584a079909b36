import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serverDir } from '../support/server-process.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/**
 * The logger's modules as JavaScript, for children run by plain `node`, as the built server is:
 * tsx would open their standard output non-blocking itself, hiding what the writer must do for
 * a blocking pipe. Written under the package's node_modules, so that `pino` resolves.
 */
const builtLogger = path.join(serverDir, 'node_modules', '.cache', 'stdout-writer-test');
beforeAll(() => {
  mkdirSync(builtLogger, { recursive: true });
  writeFileSync(path.join(builtLogger, 'package.json'), '{ "type": "module" }\n');
  for (const name of ['index', 'stdout-writer', 'stdout-sinks']) {
    const source = readFileSync(path.join(serverDir, 'src', 'logger', `${name}.ts`), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 },
    });
    writeFileSync(path.join(builtLogger, `${name}.js`), outputText);
  }
});

/** A child's module: `script` with `createLogger` in scope, then kept alive unless it exits. */
const childModule = (script: string) =>
  `const { createLogger } = await import(${JSON.stringify(path.join(builtLogger, 'index.js'))});\n${script}\nsetInterval(() => {}, 60_000);`;

/** The child's standard output: whether it is open non-blocking (O_NONBLOCK in its flags). */
const nonBlockingStdout = `(Number.parseInt(
  (await import('node:fs')).readFileSync('/proc/self/fdinfo/1', 'utf8').match(/flags:\\s*(\\d+)/)[1],
  8,
) & 0o4000) !== 0`;

/**
 * Runs `script` (a module body with `createLogger` in scope) in a process of its own, plain
 * `node`, which then stays alive unless the script exits: its lines must reach stdout without
 * an exit. Its stdout is a FIFO, blocking as a pipe from a shell is, that this process starts
 * reading only after `unreadForMs`, or when asked (`startReading`) if that is `Infinity`, so
 * a burst larger than the pipe (64 KiB) fills it until then. With `readEveryMs`, it reads at
 * most once per that many milliseconds (up to 64 KiB a read). With `toFile`, stdout is a file.
 */
function logInChild(
  script: string,
  {
    unreadForMs = 0,
    readerGone = false,
    readEveryMs = 0,
    toFile = false,
    nodeArgs = [] as string[],
  } = {},
) {
  const dir = mkdtempSync(path.join(tmpdir(), 'petstore-logger-'));
  const fifo = path.join(dir, 'stdout');
  if (toFile) {
    writeFileSync(fifo, '');
  } else {
    execFileSync('mkfifo', [fifo]);
  }
  const readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeEnd = openSync(fifo, constants.O_WRONLY);
  if (readerGone) closeSync(readEnd);
  const child: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, '--input-type=module', '-e', childModule(script)],
    // No NODE_OPTIONS: an --import there (a loader, a debugger) would open stdout before the
    // writer does, and the pipe would no longer start blocking.
    {
      cwd: serverDir,
      stdio: ['ignore', writeEnd, 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    },
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
    reader.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (readEveryMs === 0) return;
      reader!.pause();
      setTimeout(() => reader!.resume(), readEveryMs);
    });
  };
  const timer =
    Number.isFinite(unreadForMs) && !readerGone && !toFile
      ? setTimeout(startReading, unreadForMs)
      : undefined;
  cleanups.push(() => {
    clearTimeout(timer);
    child.kill('SIGKILL');
    if (reader) reader.destroy();
    else if (!readerGone) closeSync(readEnd);
    rmSync(dir, { recursive: true, force: true });
  });
  const output = () => (toFile ? readFileSync(fifo, 'utf8') : out);
  const messages = () =>
    output()
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
  return { messages, output, stderr: () => err, closed, startReading };
}

/**
 * Runs `script` as `logInChild` does, with a terminal for its stdout: a pseudo-terminal made by
 * `script` (util-linux, in every Debian), whose output this process reads as it comes. `pause()`
 * and `resume()` type Ctrl-S and Ctrl-Q on it, as a person at the terminal would. The child's
 * stderr is a FIFO apart, so that it is read while the terminal is paused.
 */
function logInTerminal(script: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'petstore-logger-'));
  const file = path.join(dir, 'child.mjs');
  writeFileSync(file, childModule(script));
  const fifo = path.join(dir, 'stderr');
  execFileSync('mkfifo', [fifo]);
  const readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const terminal = spawn(
    'script',
    ['-q', '-e', '-c', `exec '${process.execPath}' '${file}' 2>'${fifo}'`, '/dev/null'],
    {
      cwd: serverDir,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '', SHELL: '/bin/sh' },
    },
  );
  let out = '';
  let err = '';
  let terminalErr = '';
  terminal.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  terminal.stderr.setEncoding('utf8').on('data', (chunk: string) => (terminalErr += chunk));
  const reader = new net.Socket({ fd: readEnd, readable: true, writable: false });
  reader.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  cleanups.push(() => {
    const pid = /^pid (\d+)$/m.exec(err)?.[1];
    if (pid !== undefined) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // already gone
      }
    }
    terminal.kill('SIGKILL');
    reader.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    /** The whole lines the terminal showed so far (the terminal ends each with CR LF). */
    lines: () =>
      out
        .slice(0, out.lastIndexOf('\n') + 1)
        .split(/\r?\n/)
        .filter(Boolean),
    /** The child's exit code (`script -e` passes it on), once the terminal is closed. */
    closed: new Promise<number | null>((resolve) =>
      terminal.once('close', (code: number | null) => resolve(code)),
    ),
    stderr: () => err,
    terminalErrors: () => terminalErr,
    pause: () => terminal.stdin.write('\x13'),
    resume: () => terminal.stdin.write('\x11'),
    /** Stops and continues `script`, so that nobody reads the terminal meanwhile. */
    stopReading: () => process.kill(terminal.pid!, 'SIGSTOP'),
    readAgain: () => process.kill(terminal.pid!, 'SIGCONT'),
  };
}

/**
 * A tick logged every 10 ms (padded with `pad` x's), and a beat on stderr every 50 ms saying
 * the event loop runs.
 */
const ticking = (pad = 0) => `
  process.stderr.write('pid ' + process.pid + '\\n');
  let tick = 0;
  setInterval(() => logger.info('tick ' + (tick += 1) + ' ' + 'x'.repeat(${pad})), 10);
  let beat = 0;
  setInterval(() => process.stderr.write('beat ' + (beat += 1) + '\\n'), 50);
`;

/** The beats the child has said on stderr so far. */
const beats = (stderr: string) => stderr.match(/^beat \d+$/gm)?.length ?? 0;

/** The ticks among `lines` that are whole JSON lines, and how many lines are not. */
function ticksOf(lines: string[]) {
  const ticks: number[] = [];
  let torn = 0;
  for (const line of lines) {
    try {
      ticks.push(Number(/^tick (\d+) x*$/.exec((JSON.parse(line) as { msg: string }).msg)![1]));
    } catch {
      torn += 1;
    }
  }
  return { ticks, torn };
}

/**
 * Starts reading the child's stdout once it has said `exiting` on stderr, just before its
 * `process.exit`: so the exit always meets a full pipe and a write under way, however slowly
 * the child ran (a reader started after a fixed delay could come before its exit on a loaded
 * machine). The exit then waits up to a second for the reader.
 */
async function readOnceExiting(child: { stderr: () => string; startReading: () => void }) {
  await expect.poll(() => child.stderr().includes('exiting\n'), { timeout: 10_000 }).toBe(true);
  child.startReading();
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

  it('opens its standard output non-blocking, so that no write waits on a stalled reader', async () => {
    const { stderr } = logInChild(
      `
      const before = ${nonBlockingStdout};
      createLogger('info');
      process.stderr.write('non-blocking before ' + before + ', after ' + (${nonBlockingStdout}) + '\\n');
      `,
    );
    await expect
      .poll(stderr, { timeout: 10_000 })
      .toContain('non-blocking before false, after true');
  }, 20_000);

  it('holds at most 16 MiB for a reader that stalls, drops lines past that, and says when it reads again', async () => {
    // 192 MiB of lines in 1 KiB lines, 1 MiB per turn, into a pipe nobody reads yet; then the
    // heap after a full collection, and a line every 50 ms.
    const { stderr, messages, output, startReading } = logInChild(
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
    const caughtUp = /being read again: (\d+) log lines were dropped/;
    await expect.poll(() => caughtUp.exec(stderr())?.[1], { timeout: 20_000 }).toBeDefined();
    await expect
      .poll(() => messages().some((msg) => msg.startsWith('tick')), { timeout: 5_000 })
      .toBe(true);
    const dropped = Number(caughtUp.exec(stderr())![1]);
    const lines = output().split('\n').filter(Boolean);
    const burst = lines.filter((line) => !line.includes('"msg":"tick'));
    const firstTick = Number(/"msg":"tick (\d+)"/.exec(output())![1]);
    // Written up to the bound, then dropped: the burst's other lines and the ticks before the
    // first one written. The stalled pipe completed one write, the first batch's (its callback
    // comes a turn later, by when the rest of that turn's batches wait to go out as one write,
    // which the reader never finishes): what waited in memory is the rest, at most 16 MiB, and
    // more than 16 MiB less a batch, since only the batch that would cross the bound is
    // dropped. Before, that batch was written: 384 bytes past 16 MiB here.
    const written = burst.reduce((bytes, line) => bytes + Buffer.byteLength(line) + 1, 0);
    const lineBytes = Buffer.byteLength(burst[0]!) + 1;
    const batch = Math.ceil((8 * 1024) / lineBytes) * lineBytes;
    expect(written - batch).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(written - batch).toBeGreaterThan(16 * 1024 * 1024 - batch);
    expect(burst.length + dropped).toBe(192 * 1024 + firstTick - 1);
  }, 60_000);

  it('writes a line larger than the 16 MiB bound whole when nothing waits for the reader', async () => {
    const { messages, stderr } = logInChild(
      `createLogger('info').info('y'.repeat(17 * 1024 * 1024));`,
    );
    await expect.poll(() => messages()[0]?.length, { timeout: 10_000 }).toBe(17 * 1024 * 1024);
    expect(stderr()).toBe('');
  }, 20_000);

  it('delivers every line to a reader slower than the lines come, waiting for it to make room', async () => {
    // 8.4 MiB at once (under the 16 MiB bound) into a pipe read once per millisecond at most:
    // about 130 reads. Every write the full pipe refuses waits for the reader to make room; a
    // writer that slept 100 ms after each (sonic-boom on a non-blocking pipe) took 6.5 s here.
    const started = performance.now();
    const { messages, stderr } = logInChild(
      `
      const logger = createLogger('info');
      for (let i = 0; i < 8600; i += 1) logger.info('x'.repeat(1000));
      logger.info('done');
      `,
      { readEveryMs: 1 },
    );
    await expect.poll(() => messages().at(-1), { timeout: 3_000 }).toBe('done');
    expect(messages()).toHaveLength(8601);
    expect(stderr()).toBe('');
    // Node's start-up and the import included.
    expect(performance.now() - started).toBeLessThan(3_000);
  }, 20_000);

  it('writes at exit whole lines, in order, after other output still under way, and says what it dropped', async () => {
    // Other code wrote 70,000 bytes to process.stdout first (console.log, a banner): most of
    // it is in the pipe, the rest in the stream, with the logger's batch waiting behind it.
    // libuv's count of bytes not yet written is then the other write's, not the batch's.
    const child = logInChild(
      `
      process.stdout.write('x'.repeat(70_000) + '\\n');
      const logger = createLogger('info');
      for (let i = 0; i < 100; i += 1) logger.info('line ' + i);
      setTimeout(() => {
        for (let i = 100; i < 200; i += 1) logger.info('line ' + i);
        process.stderr.write('exiting\\n');
        process.exit(0);
      }, 50);
      `,
      { unreadForMs: Infinity },
    );
    const { output, stderr, closed } = child;
    await readOnceExiting(child);
    expect(await exitWithin(closed, 10_000)).toBe(0);
    await expect
      .poll(() => output().endsWith('"msg":"line 199"}\n'), { timeout: 4_000 })
      .toBe(true);
    const lines = output()
      .split('\n')
      .filter((line) => line !== '' && !/^x+$/.test(line));
    // Every log line that reached the reader is whole, and they come in order.
    const numbers = lines.map((line) =>
      Number(/^line (\d+)$/.exec((JSON.parse(line) as { msg: string }).msg)![1]),
    );
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(new Set(numbers).size).toBe(numbers.length);
    // The batch whose fate was unknown is counted on stderr, not written twice.
    expect(stderr()).toMatch(/the last \d+ bytes of log lines are dropped at exit/);
  }, 20_000);

  it('says on stderr that its stdout has gone when the first write to find it gone is at exit', async () => {
    const { stderr, closed } = logInChild(
      `
      createLogger('info').info('only');
      process.exit(0);
      `,
      { readerGone: true },
    );
    expect(await exitWithin(closed, 10_000)).toBe(0);
    expect(stderr()).toContain(
      'Standard output failed (EPIPE): log lines are dropped from now on.',
    );
  }, 20_000);

  it('writes every line to a file, in order, the last ones at exit', async () => {
    const { messages, closed } = logInChild(
      `
      const logger = createLogger('info');
      for (let i = 0; i < 1024; i += 1) logger.info('line ' + i + ' ' + 'x'.repeat(1000));
      setTimeout(() => {
        for (let i = 1024; i < 1100; i += 1) logger.info('line ' + i + ' ' + 'x'.repeat(1000));
        logger.info('last');
        process.exit(0);
      }, 50);
      `,
      { toFile: true },
    );
    expect(await exitWithin(closed, 10_000)).toBe(0);
    const lines = Array.from({ length: 1100 }, (_, i) => `line ${i} ${'x'.repeat(1000)}`);
    expect(messages()).toEqual([...lines, 'last']);
  }, 20_000);

  it('exits after a second, dropping the lines left, when its stdout reader does not read', async () => {
    // 1 MiB of lines fills the pipe, which nobody reads, then the process exits 1.5 s later.
    // The pipe was opened blocking: a write left blocked in the pool would hold the exit.
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

  /** 1 MiB of lines at once, then 50 ms later a last line and the exit. */
  const burstThenExit = `
    const logger = createLogger('info');
    for (let i = 0; i < 1024; i += 1) logger.info('line ' + i + ' ' + 'x'.repeat(1000));
    setTimeout(() => {
      logger.info('last');
      process.stderr.write('exiting\\n');
      process.exit(0);
    }, 50);
  `;

  it('writes at exit, in order and whole, the lines its reader has not taken yet', async () => {
    // 1 MiB of lines into a pipe nobody reads until the exit: 50 ms later one write of most of it
    // is under way, the pipe (64 KiB) holding its start; then a last line, and the process exits.
    // At exit the rest of that write, then the last line, go out once the reader takes them:
    // every line, in order, none torn.
    const child = logInChild(burstThenExit, { unreadForMs: Infinity });
    await readOnceExiting(child);
    const { messages, closed } = child;
    expect(await exitWithin(closed, 10_000)).toBe(0);
    const expected = [
      ...Array.from({ length: 1024 }, (_, i) => `line ${i} ${'x'.repeat(1000)}`),
      'last',
    ];
    await expect.poll(messages, { timeout: 4_000 }).toEqual(expected);
  }, 20_000);

  it('counts the write under way as dropped at exit, never writes it twice, when libuv does not say how much of it is left', async () => {
    // As the test above, with the stream's handle hiding writeQueueSize (undocumented; a later
    // Node may not have it): how much of the write under way went out is then unknown.
    const child = logInChild(
      `Object.defineProperty(process.stdout._handle, 'writeQueueSize', { get: () => undefined });
      ${burstThenExit}`,
      { unreadForMs: Infinity },
    );
    await readOnceExiting(child);
    const { output, stderr, closed } = child;
    expect(await exitWithin(closed, 10_000)).toBe(0);
    await expect.poll(() => output().endsWith('"msg":"last"}\n'), { timeout: 4_000 }).toBe(true);
    // What went out of the write under way (the pipe's 64 KiB), its last line torn and ended by
    // a newline; then the lines that waited behind it, whole.
    const lines = output().split('\n').filter(Boolean);
    const whole = lines.flatMap((line) => {
      try {
        return [(JSON.parse(line) as { msg: string }).msg];
      } catch {
        return [];
      }
    });
    expect(lines.length - whole.length).toBeLessThanOrEqual(1);
    expect(whole.at(-1)).toBe('last');
    const numbers = whole.slice(0, -1).map((msg) => Number(/^line (\d+) /.exec(msg)![1]));
    expect(numbers).toEqual(numbers.map((_, i) => i));
    expect(numbers.length).toBeLessThan(1024);
    expect(stderr()).toMatch(/the last \d+ bytes of log lines are dropped at exit/);
  }, 20_000);
  it('waits for a paused terminal, holding the server, and writes every line once it is resumed', async () => {
    const terminal = logInTerminal(`const logger = createLogger('info');\n${ticking()}`);
    await expect.poll(() => terminal.lines().length, { timeout: 10_000 }).toBeGreaterThan(5);
    terminal.pause();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const held = beats(terminal.stderr());
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // A blocking terminal: the write waits for it, and with it the event loop.
    expect(beats(terminal.stderr())).toBe(held);
    terminal.resume();
    await expect.poll(() => beats(terminal.stderr()), { timeout: 5_000 }).toBeGreaterThan(held + 5);
    const lastBefore = ticksOf(terminal.lines()).ticks.at(-1)!;
    await expect
      .poll(() => ticksOf(terminal.lines()).ticks.at(-1), { timeout: 5_000 })
      .toBeGreaterThan(lastBefore + 20);
    const { ticks, torn } = ticksOf(terminal.lines());
    expect(torn).toBe(0);
    expect(ticks).toEqual(ticks.map((_, i) => i + 1));
    expect(terminal.stderr()).not.toContain('Standard output');
    expect(terminal.terminalErrors()).toBe('');
  }, 30_000);

  const refusedNotice =
    'Standard output refuses writes (EAGAIN: a non-blocking terminal, paused or not read): log lines are dropped until it takes them again.';

  /** `logInTerminal` of `script`, once another program has made the terminal non-blocking. */
  async function tickingOnNonBlockingTerminal(script: string) {
    // dd sets O_NONBLOCK on its standard output, the child's open terminal (as a shell's jobs,
    // one program can do it for all that share the terminal).
    const terminal = logInTerminal(`
      const logger = createLogger('info');
      (await import('node:child_process')).spawnSync(
        'dd', ['if=/dev/null', 'oflag=nonblock', 'count=0', 'status=none'],
        { stdio: ['ignore', 'inherit', 'inherit'] },
      );
      process.stderr.write('non-blocking ' + (${nonBlockingStdout}) + '\\n');
      ${script}
    `);
    await expect.poll(() => terminal.stderr(), { timeout: 10_000 }).toContain('non-blocking true');
    await expect.poll(() => terminal.lines().length, { timeout: 10_000 }).toBeGreaterThan(5);
    return terminal;
  }

  /**
   * A child on a terminal made non-blocking, logging ticks padded with `pad` x's: `stop()` makes
   * the terminal refuse them, `go()` makes it take them again. Returns how many lines were torn.
   */
  async function refusedThenTakenAgain(
    pad: number,
    stop: (terminal: ReturnType<typeof logInTerminal>) => void,
    go: (terminal: ReturnType<typeof logInTerminal>) => void,
  ) {
    const terminal = await tickingOnNonBlockingTerminal(ticking(pad));
    stop(terminal);
    await expect.poll(() => terminal.stderr(), { timeout: 10_000 }).toContain(refusedNotice);
    // After the first second, refused batches are tried once each: the event loop runs on.
    const atNotice = beats(terminal.stderr());
    await expect
      .poll(() => beats(terminal.stderr()), { timeout: 3_000 })
      .toBeGreaterThan(atNotice + 10);
    go(terminal);
    const takenAgain = /Standard output takes writes again: (\d+) log lines were dropped\./;
    await expect.poll(() => takenAgain.exec(terminal.stderr()), { timeout: 5_000 }).toBeTruthy();
    const lastBefore = ticksOf(terminal.lines()).ticks.at(-1)!;
    await expect
      .poll(() => ticksOf(terminal.lines()).ticks.at(-1), { timeout: 5_000 })
      .toBeGreaterThan(lastBefore + 20);
    // Every tick up to the last one shown was either shown, in order, or counted as dropped: a
    // line cut off part way is counted as dropped, and the line after it starts a line of its own.
    const { ticks, torn } = ticksOf(terminal.lines());
    const dropped = Number(takenAgain.exec(terminal.stderr())![1]);
    expect(dropped).toBeGreaterThan(0);
    expect(ticks).toEqual([...ticks].sort((a, b) => a - b));
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks.length + dropped).toBe(ticks.at(-1));
    expect(terminal.stderr().match(/Standard output/g)).toHaveLength(2);
    expect(terminal.terminalErrors()).toBe('');
    return torn;
  }

  it('drops lines while a paused terminal made non-blocking refuses them, without holding the server, and writes again once it is resumed', async () => {
    const torn = await refusedThenTakenAgain(
      0,
      (terminal) => terminal.pause(),
      (terminal) => terminal.resume(),
    );
    // A paused terminal takes nothing: no line is cut off.
    expect(torn).toBe(0);
  }, 30_000);

  it('ends a line cut off by a non-blocking terminal that stops taking lines, and writes again once it takes them', async () => {
    // Nobody reads the terminal for a while (its reader, `script`, stopped): its buffer fills,
    // and a write of 1 KiB lines is taken part of the way.
    const torn = await refusedThenTakenAgain(
      1000,
      (terminal) => terminal.stopReading(),
      (terminal) => terminal.readAgain(),
    );
    // A 1 KiB line's end meets the full buffer's about once in a thousand: nearly always one is cut.
    expect(torn).toBeLessThanOrEqual(1);
  }, 30_000);

  it('says at exit how many lines a terminal still refusing them cost, and exits', async () => {
    const terminal = await tickingOnNonBlockingTerminal(`
      process.on('SIGTERM', () => {
        logger.info('last');
        process.exit(0);
      });
      ${ticking()}
    `);
    terminal.pause();
    await expect.poll(() => terminal.stderr(), { timeout: 10_000 }).toContain(refusedNotice);
    process.kill(Number(/^pid (\d+)$/m.exec(terminal.stderr())![1]), 'SIGTERM');
    expect(await exitWithin(terminal.closed, 5_000)).toBe(0);
    await expect
      .poll(terminal.stderr, { timeout: 5_000 })
      .toMatch(
        /Standard output still refused writes at exit: [1-9]\d* log lines were dropped\.\n$/,
      );
  }, 30_000);
});
