import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type IssueApiKeyOptions, issueApiKey } from '../../src/keys/index.js';
import { openStorage } from '../../src/storage/index.js';

/** The server package folder. */
export const serverDir = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  /** Every JSON log line so far. */
  logs: Record<string, unknown>[];
  /** Everything written to stderr so far. */
  stderr: () => string;
  /** Resolves with the exit code (or the signal's name), once its output is read to the end. */
  exited: Promise<number | string>;
}

/**
 * Runs `src/main.ts` (through tsx, as `npm run keys` does) with `env` added to this environment.
 * No drain on SIGTERM unless `env` sets `SHUTDOWN_DRAIN_SECONDS`: the tests that stop a process
 * for another reason need not wait for it.
 */
export function spawnServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  let stderr = '';
  let pending = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines)
      if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  // 'close': exited, and its stdout and stderr read to the end, so `logs` and `stderr` are whole.
  const exited = new Promise<number | string>((resolve) => {
    child.once('close', (code, signal) => resolve(code ?? signal ?? -1));
  });
  return { child, logs, stderr: () => stderr, exited };
}

/** Resolves with the server's URL once it logs "listening"; rejects if it exits first. */
export function listening(server: ServerProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const line = server.logs.find((entry) => entry.msg === 'listening');
      if (line) {
        server.child.stdout?.off('data', check);
        resolve(line.url as string);
      }
    };
    server.child.stdout?.on('data', check);
    void server.exited.then((code) =>
      reject(new Error(`server exited (${code}) before listening: ${server.stderr()}`)),
    );
  });
}

/**
 * Issues a key in the database a server process will open (as `npm run keys -- create` would,
 * through `issueApiKey`) and returns the raw key.
 */
export async function issueKeyIn(
  databaseUrl: string,
  options: IssueApiKeyOptions = {
    plan: 'enterprise',
    quota: { perMinute: 100_000, perDay: 1_000_000 },
  },
): Promise<string> {
  const storage = await openStorage(databaseUrl);
  try {
    return (await issueApiKey(storage.keys, { name: 'process test', ...options })).raw;
  } finally {
    await storage.close();
  }
}

/** Resolves with the first log line whose message starts with `message` (already logged or to come). */
export function logged(server: ServerProcess, message: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const line = server.logs.find((entry) => String(entry.msg).startsWith(message));
      if (!line) return;
      server.child.stdout?.off('data', check);
      resolve(line);
    };
    server.child.stdout?.on('data', check);
    check();
    void server.exited.then((code) =>
      reject(new Error(`server exited (${code}) before logging "${message}"`)),
    );
  });
}
