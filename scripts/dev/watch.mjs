// Watches folders for changes with chokidar and reports them in batches, so an editor's save
// burst triggers one rebuild. Why chokidar and not Node's recursive fs.watch: on Linux, Node
// (seen on 20) watches each file's inode, so once a file is replaced by a rename (what `git checkout`,
// `git stash`, `sed -i` and editors' safe-write do) its later edits are never reported and the
// dev loop goes deaf. chokidar also watches the folders and picks the new file up.
import path from 'node:path';
import { watch } from 'chokidar';

/**
 * Editor droppings (vim swap files and its 4913 probe, backups~, Emacs lock files) and the
 * temporary names generated files are written under before their rename (write-into-place.mjs).
 */
const editorDropping = /^(\..*\.sw[a-p]|.*~|\.#.*|4913|\.tmp-.*)$/;
/** Folders of build output and dependencies, never watched. */
const skippedFolders = new Set(['node_modules', 'dist']);

/**
 * True for a path the dev loop must not react to. Only the part below the watched folder is
 * looked at, so a project checked out under, say, /home/me/dist/ is still watched.
 */
function ignoredIn(folders) {
  return (file) => {
    if (editorDropping.test(path.basename(file))) return true;
    const folder = folders.find((f) => file === f || file.startsWith(f + path.sep));
    const below = folder ? path.relative(folder, file) : '';
    return below.split(path.sep).some((part) => skippedFolders.has(part));
  };
}

/**
 * @typedef {object} FolderWatcher
 * @property {Promise<void>} ready Resolves once the folders are scanned: changes made after
 *   it are reported.
 * @property {() => Promise<void>} close Stops watching.
 */

/**
 * Calls `onChange` with the changed, added or removed files (absolute paths) once `quietMs`
 * pass without a further change in any of `folders` (watched recursively).
 *
 * @param {string[]} folders
 * @param {(files: string[]) => void} onChange
 * @param {{ quietMs?: number, onError?: (error: Error) => void }} [options] quietMs: the
 *   debounce window (default 150 ms); onError: a watch error (default: printed).
 * @returns {FolderWatcher}
 * @example
 * const watcher = watchFolders(['openapi'], (files) => console.log(files));
 * await watcher.ready;
 */
export function watchFolders(
  folders,
  onChange,
  { quietMs = 150, onError = (error) => console.error(`watch: ${error.message}`) } = {},
) {
  const absolute = folders.map((folder) => path.resolve(folder));
  let pending = new Set();
  let timer;
  const watcher = watch(absolute, { ignoreInitial: true, ignored: ignoredIn(absolute) });
  watcher.on('all', (event, file) => {
    if (event !== 'add' && event !== 'change' && event !== 'unlink') return;
    pending.add(file);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...pending];
      pending = new Set();
      onChange(files);
    }, quietMs);
  });
  watcher.on('error', (error) => onError(/** @type {Error} */ (error)));
  const ready = new Promise((resolve) => watcher.once('ready', () => resolve(undefined)));
  return {
    ready,
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}
