// Writes a generated file whole or not at all. The file is first written beside its target
// under a temporary name (`.tmp-<pid>-<random>-<name>`, ignored by git), then renamed onto it:
// a rename within one folder replaces the target at once, so a build stopped part way
// (Ctrl-C in `npm run dev`, a killed `npm run generate`) leaves the previous file as it was,
// never a torn one that a later `git add` could commit or the server could load. What such a
// kill leaves is removed by the next write of the same target.
import { randomBytes } from 'node:crypto';
import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** The prefix of a temporary file; `.gitignore` ignores `.tmp-*`. */
export const temporaryPrefix = '.tmp-';

/**
 * Has `produce` write the file at the temporary path it is given (the target's name kept at its
 * end, so a tool that picks its format by extension still does), then renames it onto `target`.
 * When `produce` throws, the temporary file is removed and `target` is untouched. A process
 * killed in between can leave the temporary file behind, never a torn `target`.
 *
 * @param {string} target
 * @param {(temporaryPath: string) => Promise<unknown>} produce
 * @returns {Promise<string>} `target`
 * @example
 * await intoPlace('out/openapi.yaml', (to) => run('redocly', ['bundle', '-o', to]));
 */
export async function intoPlace(target, produce) {
  await removeLeftovers(target);
  const name = `${temporaryPrefix}${process.pid}-${randomBytes(4).toString('hex')}-${path.basename(target)}`;
  const temporary = path.join(path.dirname(target), name);
  try {
    await produce(temporary);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return target;
}

/**
 * Removes the temporary files of `target` that a writer killed part way left beside it: those
 * named after a process that no longer runs. A running writer's file (another `npm run
 * generate` at the same time, or this process's own) is left alone. Best effort: a file that
 * cannot be removed (another user's, say) stays, and the write goes on. A writer in another
 * PID namespace (a container sharing the folder) looks dead from here: its file would be
 * removed and its own rename would fail, leaving the target as it was.
 *
 * @param {string} target
 */
async function removeLeftovers(target) {
  const dir = path.dirname(target);
  const suffix = `-${path.basename(target)}`;
  /** @type {string[]} */
  let names;
  try {
    names = await readdir(dir);
  } catch {
    return; // the write that follows reports a folder it cannot use
  }
  for (const name of names) {
    if (!name.startsWith(temporaryPrefix) || !name.endsWith(suffix)) continue;
    // Between the two, `intoPlace` puts `<pid>-<8 hex digits>`; anything more belongs to another
    // target whose name ends in this one's (`x-openapi.json`).
    const parts = name.slice(temporaryPrefix.length, -suffix.length).split('-');
    if (parts.length !== 2 || !/^\d+$/.test(parts[0]) || !/^[0-9a-f]{8}$/.test(parts[1])) continue;
    const pid = Number(parts[0]);
    if (pid !== process.pid && !isRunning(pid)) {
      await rm(path.join(dir, name), { force: true }).catch(() => {});
    }
  }
}

/** @param {number} pid */
function isRunning(pid) {
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return true;
  } catch (error) {
    // EPERM: it exists, run by another user.
    return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
  }
}

/**
 * `writeFile(target, data)` through `intoPlace`: the target holds the old contents or the
 * new, never a part.
 *
 * @param {string} target
 * @param {string | Uint8Array} data
 */
export function writeIntoPlace(target, data) {
  return intoPlace(target, (temporary) => writeFile(temporary, data));
}
