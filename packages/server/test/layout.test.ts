import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The layout rule of `src/`: a folder's `index.ts` is its public face. Code outside a folder
 * imports it only through that `index.ts`; the single-file modules at the top of `src/`
 * (`domain.ts`, `clock.ts`, `contract.ts`, …) are public as they are. Tests may reach into the
 * folder they mirror (`test/storage/` into `src/storage/`), and nowhere else.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const src = path.join(root, 'src');

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => pattern.test(file))
    .map((file) => path.join(dir, file));
}

/** The relative imports of a file, resolved to `.ts` files. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)].map((match) =>
    path.resolve(path.dirname(file), `${match[1]}.ts`),
  );
}

/** Why `importer` may not import `target`, or undefined when it may. */
function violation(importer: string, target: string, ownFolder: string): string | undefined {
  if (!target.startsWith(src)) return undefined;
  const targetDir = path.dirname(target);
  if (targetDir === src) return undefined; // a top-level module
  if (path.basename(target) === 'index.ts') return undefined;
  // A sibling in its own folder, or a module of an enclosing folder (a subfolder such as
  // storage/sqlite/ belongs to storage/ and may use its private modules).
  if (ownFolder === targetDir || ownFolder.startsWith(targetDir + path.sep)) return undefined;
  return `${path.relative(root, importer)} reaches past ${path.relative(root, targetDir)}/index.ts to ${path.relative(root, target)}`;
}

describe('the layout of src/', () => {
  it('imports other folders only through their index.ts', () => {
    const problems = files(src, /\.ts$/).flatMap((file) =>
      relativeImports(file)
        .map((target) => violation(file, target, path.dirname(file)))
        .filter((problem) => problem !== undefined),
    );
    expect(problems).toEqual([]);
  });

  it('lets a test reach only into the folder it mirrors', () => {
    const testDir = path.join(root, 'test');
    const problems = files(testDir, /\.tsx?$/).flatMap((file) => {
      const mirrored = path.join(src, path.relative(testDir, path.dirname(file)));
      return relativeImports(file)
        .filter((target) => !target.startsWith(mirrored + path.sep))
        .map((target) => violation(file, target, mirrored))
        .filter((problem) => problem !== undefined);
    });
    expect(problems).toEqual([]);
  });
});
