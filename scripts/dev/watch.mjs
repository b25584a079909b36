// Watches folders for changes with Node's own recursive fs.watch (supported on Linux since
// Node 20) and reports them in batches, so an editor's save burst triggers one rebuild.
import { watch } from 'node:fs';
import path from 'node:path';

/** Editor droppings and build output that must not trigger a rebuild. */
const ignored = /(^|[/\\])(\.[^/\\]*\.swp|.*~|\.#.*|4913|node_modules|dist)([/\\]|$)/;

/**
 * Calls `onChange` with the changed files (absolute paths) once `quietMs` pass without a
 * further change in any of `folders`.
 *
 * @param {string[]} folders Folders watched recursively.
 * @param {(files: string[]) => void} onChange
 * @param {{ quietMs?: number }} [options] quietMs: the debounce window (default 150 ms).
 * @returns {() => void} Stops watching.
 * @example
 * const stop = watchFolders(['openapi'], (files) => console.log(files));
 */
export function watchFolders(folders, onChange, { quietMs = 150 } = {}) {
  let pending = new Set();
  let timer;
  const watchers = folders.map((folder) =>
    watch(folder, { recursive: true }, (_event, name) => {
      if (!name || ignored.test(name)) return;
      pending.add(path.join(folder, name));
      clearTimeout(timer);
      timer = setTimeout(() => {
        const files = [...pending];
        pending = new Set();
        onChange(files);
      }, quietMs);
    }),
  );
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
