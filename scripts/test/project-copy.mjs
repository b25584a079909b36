// A throw-away copy of this project for tests that must edit the description or the sources
// without touching the repository: the files git knows (tracked, or new and not ignored, as
// they are in the working tree), and a node_modules of links to the repository's packages,
// except @petstore/*, which point at the copy's own packages (so the copy's server serves the
// copy's bundle).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { root } from '../generate.mjs';

/** The files git would commit from the working tree, relative to the root. */
export function projectFiles(cwd = root) {
  return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => file !== '' && !file.startsWith('node_modules'))
    .filter((file) => existsSync(path.join(cwd, file)));
}

/**
 * Copies the project into `dest` (which must not exist or be empty) and links its
 * node_modules. Returns `dest`.
 * @param {string} dest
 */
export async function copyProject(dest) {
  for (const file of projectFiles()) {
    await cp(path.join(root, file), path.join(dest, file), { recursive: true });
  }
  const modules = path.join(dest, 'node_modules');
  await mkdir(path.join(modules, '@petstore'), { recursive: true });
  for (const entry of await readdir(path.join(root, 'node_modules'))) {
    if (entry === '@petstore') continue;
    await symlink(path.join(root, 'node_modules', entry), path.join(modules, entry));
  }
  for (const folder of await readdir(path.join(dest, 'packages'))) {
    const pkg = path.join(dest, 'packages', folder);
    const { name } = JSON.parse(await readFile(path.join(pkg, 'package.json'), 'utf8'));
    await symlink(pkg, path.join(modules, name));
  }
  return dest;
}
