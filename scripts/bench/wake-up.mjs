// What waking a process on the other core costs on this machine: two processes pass one byte
// back and forth through a pair of named pipes, blocking on each read, first on the server's
// core and the harness's, then both on the server's core. Each answer a server writes may wake
// its client, which runs on the other core here (autocannon on the harness's): a target that
// writes each answer on its own pays this up to once per answer, one that writes the answers of
// a turn together up to once per turn. A machine on which it is dear inflates the ratios of the
// second kind of target to the first (docs/benchmarks.md, Method: Wake-up across cores), so the
// report gives it.
//
// Run as a program (`node wake-up.mjs ping|pong <dir> <round trips>`), it is one of the two ends.
import { execFile, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const self = fileURLToPath(import.meta.url);

/** Round trips measured: about 1 s at 58 µs each (after WARM_UP unmeasured). */
const ROUND_TRIPS = 20_000;
const WARM_UP = 2_000;
/** Longer than any machine here needs for both ends (about 1.5 s at 58 µs a round trip). */
const TIMEOUT_MS = 60_000;

/**
 * Mean wall µs per round trip between a process on `from` and one on `to` (the same core or
 * not), and the CPU µs the sender spent per round trip.
 */
export async function roundTrip({ from, to, roundTrips = ROUND_TRIPS }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'petstore-wake-up-'));
  const ends = [];
  // An end that fails before opening its pipe leaves the other blocked in its open: stop both
  // when one fails, and when they take too long.
  const stop = () => ends.forEach((child) => child.kill());
  const timer = setTimeout(stop, TIMEOUT_MS);
  try {
    for (const pipe of ['ping', 'pong'])
      await promisify(execFile)('mkfifo', [path.join(dir, pipe)]);
    let failure;
    const settled = await Promise.allSettled(
      [
        ['ping', from],
        ['pong', to],
      ].map(([role, core]) =>
        startEnd({ role, core, dir, roundTrips, ends }).catch((error) => {
          failure ??= error; // the first: the other end's is that it was stopped
          stop();
          throw error;
        }),
      ),
    );
    if (failure) throw failure;
    return JSON.parse(settled[0].value);
  } finally {
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs one end on `core` (added to `ends`); resolves to what it printed. */
function startEnd({ role, core, dir, roundTrips, ends }) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'taskset',
      ['-c', String(core), process.execPath, self, role, dir, String(roundTrips)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    ends.push(child);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve(out) : reject(new Error(`wake-up ${role} ended (${code ?? signal})`)),
    );
  });
}

/** Both figures of the machine: across the two cores, and on one. */
export async function measureWakeUp({ cores: [first, second], roundTrips = ROUND_TRIPS }) {
  const across = await roundTrip({ from: first, to: second, roundTrips });
  const oneCore = await roundTrip({ from: first, to: first, roundTrips });
  return { across, oneCore };
}

/**
 * One end. Each opens the ping pipe first, then the pong pipe (an open blocks until the other
 * end opens it too, so the same order on both sides cannot deadlock); `ping` writes a byte and
 * waits for it back, `pong` sends back every byte it reads, until the ping end closes.
 */
function runEnd(role, dir, roundTrips) {
  const byte = Buffer.alloc(1);
  if (role === 'pong') {
    const input = openSync(path.join(dir, 'ping'), 'r');
    const output = openSync(path.join(dir, 'pong'), 'w');
    while (readSync(input, byte, 0, 1, null) === 1) writeSync(output, byte);
    closeSync(output);
    closeSync(input);
    return;
  }
  const output = openSync(path.join(dir, 'ping'), 'w');
  const input = openSync(path.join(dir, 'pong'), 'r');
  const trip = () => {
    writeSync(output, byte);
    if (readSync(input, byte, 0, 1, null) !== 1) throw new Error('the pong end closed early');
  };
  for (let i = 0; i < WARM_UP; i += 1) trip(); // unmeasured: both ends warmed up
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < roundTrips; i += 1) trip();
  const wallNs = Number(process.hrtime.bigint() - start);
  const { user, system } = process.cpuUsage(cpu);
  closeSync(output);
  closeSync(input);
  process.stdout.write(
    `${JSON.stringify({ roundTripUs: wallNs / 1000 / roundTrips, senderCpuUs: (user + system) / roundTrips })}\n`,
  );
}

if (process.argv[1] === self) {
  const [role, dir, roundTrips] = process.argv.slice(2);
  runEnd(role, dir, Number(roundTrips));
}
