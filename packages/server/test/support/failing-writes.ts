import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** The system calls that write to or resize a file. */
const WRITES = 'pwrite64,pwritev,pwritev2,write,writev,ftruncate,fallocate';

export interface FailingWrites {
  /** Detaches: the process's writes reach the disk again. */
  stop(): Promise<void>;
}

/**
 * Makes every write of process `pid` to the files `paths` fail with `errno` (default `EROFS`,
 * what writes to files already open get once their filesystem has turned read-only), until
 * `stop`. Reads and every other file are untouched. It is strace's fault injection: the
 * kernel skips the system call and returns the error, so the process and its database driver
 * run unchanged. Linux will not turn a filesystem read-only under files open for writing
 * (`mount -o remount,ro` answers "busy"), which is what a database always holds, and only a
 * kernel error (ext4 `errors=remount-ro` on a failing device) does it for real.
 *
 * Needs `strace` (Debian: `apt-get install strace`) and the right to trace `pid`: the same
 * user and `kernel.yama.ptrace_scope` 0, or the capability to trace (root, or any user inside a
 * user namespace of its own, `unshare -Ur`, as the harnesses run). strace runs as the caller's
 * child, so under Yama's default of 1 it may not trace the caller itself without it.
 */
export async function failWrites(
  pid: number,
  paths: readonly string[],
  errno = 'EROFS',
): Promise<FailingWrites> {
  const strace = spawn(
    'strace',
    [
      // -f: every thread of the process (the SQLite writer thread writes, not the main one).
      ...['-f', '-p', String(pid), '-o', '/dev/null'],
      ...paths.flatMap((file) => ['-P', file]),
      ...['-e', `trace=${WRITES}`, '-e', `inject=${WRITES}:error=${errno}`],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = once(strace, 'exit');
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    strace.once('error', reject);
    strace.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes(`Process ${pid} attached`)) resolve();
    });
    exited.then(() => reject(new Error(`strace did not attach to ${pid}: ${stderr}`)), reject);
  });
  return {
    async stop() {
      if (strace.exitCode === null) strace.kill('SIGINT');
      await exited;
    },
  };
}
