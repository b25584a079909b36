// The released descriptions (openapi/baseline/openapi-<version>.yaml) and how they are read.
// Imports nothing of the build scripts, so generate.mjs can use it without a cycle.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const baselineDir = path.join(root, 'openapi/baseline');

/** The newest released baseline (highest version in its file name). */
export async function latestBaseline() {
  const files = (await readdir(baselineDir)).filter((f) => /^openapi-.+\.ya?ml$/.test(f));
  if (files.length === 0) throw new Error(`No baseline in ${baselineDir}`);
  const version = (f) =>
    f
      .replace(/^openapi-|\.ya?ml$/g, '')
      .split('.')
      .map(Number);
  files.sort((x, y) => {
    const [a, b] = [version(x), version(y)];
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
    }
    return 0;
  });
  return path.join(baselineDir, /** @type {string} */ (files.at(-1)));
}

/** Reads a YAML or JSON description. */
export async function readDescription(file) {
  return parse(await readFile(file, 'utf8'));
}
