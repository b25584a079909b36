import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverDir } from './support/server-process.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/**
 * Runs `script` (a module body with `createLogger` in scope) in a process of its own, which
 * then stays alive: its lines must reach stdout without an exit. Its stdout is a FIFO that
 * this process starts reading only after `unreadForMs`, so a burst larger than the pipe (64 KiB)
 * keeps the child's write under way until then.
 */
function logInChild(script: string, { unreadForMs = 0 } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'petstore-logger-'));
  const fifo = path.join(dir, 'stdout');
  execFileSync('mkfifo', [fifo]);
  const readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeEnd = openSync(fifo, constants.O_WRONLY);
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { createLogger } = await import('./src/logger.ts');\n${script}\nsetInterval(() => {}, 60_000);`,
    ],
    { cwd: serverDir, stdio: ['ignore', writeEnd, 'inherit'] },
  );
  closeSync(writeEnd);
  let out = '';
  let reader: net.Socket | undefined;
  const timer = setTimeout(() => {
    reader = new net.Socket({ fd: readEnd, readable: true, writable: false });
    reader.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  }, unreadForMs);
  cleanups.push(() => {
    clearTimeout(timer);
    child.kill('SIGKILL');
    if (reader) reader.destroy();
    else closeSync(readEnd);
    rmSync(dir, { recursive: true, force: true });
  });
  const messages = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
  return { messages };
}

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
    const dir = mkdtempSync(path.join(tmpdir(), 'petstore-logger-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const fifo = path.join(dir, 'stdout');
    execFileSync('mkfifo', [fifo]);
    const readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writeEnd = openSync(fifo, constants.O_WRONLY);
    closeSync(readEnd);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { createLogger } = await import('./src/logger.ts');
        const logger = createLogger('info');
        for (let i = 0; i < 200; i += 1) logger.info('line ' + i);
        logger.info('last');
        process.exit(0);`,
      ],
      { cwd: serverDir, stdio: ['ignore', writeEnd, 'pipe'] },
    );
    closeSync(writeEnd);
    cleanups.push(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // 'close': exited, and its stderr read to the end.
    const exit = await Promise.race([
      new Promise((resolve) => child.once('close', (code) => resolve(code))),
      new Promise((resolve) => setTimeout(() => resolve('still running 10 s later'), 10_000)),
    ]);
    expect(exit).toBe(0);
    expect(stderr).toContain('Standard output failed (EPIPE): log lines are dropped from now on.');
    expect(stderr.match(/Standard output failed/g)).toHaveLength(1);
  }, 20_000);
});
