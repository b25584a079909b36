import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rebuild } from '../dev/pipeline.mjs';
import { watchFolders } from '../dev/watch.mjs';
import { defaultOut, generatedFiles, root } from '../generate.mjs';

/** Runs an npm script of the repository, as a person would. */
const npmRun = (script, ...args) =>
  promisify(execFile)('npm', ['run', '--silent', script, '--', ...args], {
    cwd: root,
  });

let scratch = '';
let description = '';

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'petstore-dev-'));
  description = await readFile(path.join(root, 'openapi/openapi.yaml'), 'utf8');
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A temporary copy of the description, edited, with its own output folder. */
async function editedCopy(name, edit) {
  const dir = path.join(scratch, name);
  await mkdir(dir, { recursive: true });
  const source = path.join(dir, 'openapi.yaml');
  await writeFile(source, edit(description));
  return {
    source,
    out: path.join(dir, 'out'),
    docsFile: path.join(dir, 'out/docs/index.html'),
  };
}

describe('the dev pipeline', () => {
  it('writes exactly what npm run generate and npm run docs write, and what is committed', async () => {
    const { source, out, docsFile } = await editedCopy('unchanged', (text) => text);
    const result = await rebuild({ source, out, docsFile });
    expect(result).toMatchObject({ ok: true, failedStage: undefined });
    expect(Object.keys(result.timings)).toEqual(['lint', 'bundle', 'types', 'docs']);

    const byScripts = path.join(scratch, 'npm-scripts');
    await npmRun('generate', '--out', byScripts);
    await npmRun(
      'docs',
      ...['--bundle', path.join(byScripts, 'openapi/openapi.yaml')],
      ...['--out', path.join(byScripts, 'docs/index.html')],
    );
    for (const file of [...generatedFiles, 'docs/index.html']) {
      expect(await readFile(path.join(out, file), 'utf8'), file).toBe(
        await readFile(path.join(byScripts, file), 'utf8'),
      );
    }
    for (const file of generatedFiles) {
      expect(await readFile(path.join(out, file), 'utf8'), file).toBe(
        await readFile(path.join(defaultOut, file), 'utf8'),
      );
    }
    // Each file was written under a temporary name and renamed into place (write-into-place.mjs):
    // none of those names is left behind.
    for (const folder of [out, byScripts]) {
      const files = await readdir(folder, { recursive: true });
      expect(files.filter((file) => path.basename(file).startsWith('.tmp-'))).toEqual([]);
    }
  });

  it('carries an edit of the description into the bundle, the types and the docs', async () => {
    const paths = await editedCopy('edited', (text) =>
      text
        .replace('summary: List animals', 'summary: List the animals of the store')
        .replace(
          /( {4}NewPet:\n(?:.*\n)*? {6}properties:\n)/,
          `$1        nickname:\n          type: string\n          description: What the animal answers to.\n          maxLength: 50\n`,
        ),
    );
    const result = await rebuild(paths);
    expect(result.ok, result.output).toBe(true);
    const bundle = JSON.parse(await readFile(path.join(paths.out, 'openapi/openapi.json'), 'utf8'));
    expect(bundle.paths['/pets'].get.summary).toBe('List the animals of the store');
    expect(bundle.components.schemas.NewPet.properties.nickname).toEqual({
      type: 'string',
      description: 'What the animal answers to.',
      maxLength: 50,
    });
    const schema = await readFile(path.join(paths.out, 'src/schema.ts'), 'utf8');
    expect(schema).toMatch(
      /\/\*\* @description What the animal answers to\. \*\/\n\s+nickname\?: string;/,
    );
    const html = await readFile(paths.docsFile, 'utf8');
    expect(html).toContain('List the animals of the store');
  });

  it('prints lint problems and leaves every artefact as it was', async () => {
    const paths = await editedCopy('broken', (text) =>
      text.replace('summary: Add an animal', 'summary: add an animal.'),
    );
    await mkdir(path.join(paths.out, 'openapi'), { recursive: true });
    const bundleFile = path.join(paths.out, 'openapi/openapi.json');
    await writeFile(bundleFile, '{"previous": true}\n');
    const before = await stat(bundleFile);

    const result = await rebuild(paths);

    expect(result.ok).toBe(false);
    expect(result.failedStage).toBe('lint');
    expect(result.output).toContain('rule/summary-sentence-case');
    expect(result.output).toContain('rule/summary-no-period');
    expect(Object.keys(result.timings)).toEqual(['lint']);
    expect(await readFile(bundleFile, 'utf8')).toBe('{"previous": true}\n');
    expect((await stat(bundleFile)).mtimeMs).toBe(before.mtimeMs);
  });
});

describe('watchFolders', () => {
  /** Watches a fresh folder; `run` gets it and the change handler. */
  async function watching(name, run) {
    const dir = path.join(scratch, name);
    await mkdir(path.join(dir, 'paths'), { recursive: true });
    await writeFile(path.join(dir, 'openapi.yaml'), 'initial');
    const onChange = vi.fn();
    const watcher = watchFolders([dir], onChange, { quietMs: 100 });
    try {
      await watcher.ready;
      await run(dir, onChange);
    } finally {
      await watcher.close();
    }
  }
  const batch = (onChange, n) => [...new Set(onChange.mock.calls[n][0])].sort();

  it('reports a burst of saves, in nested folders too, as one batch', async () => {
    await watching('burst', async (dir, onChange) => {
      await writeFile(path.join(dir, 'openapi.yaml'), 'a');
      await writeFile(path.join(dir, 'paths/pets.yaml'), 'b');
      await writeFile(path.join(dir, '.openapi.yaml.swp'), 'editor swap file');
      await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1), {
        timeout: 5_000,
      });
      expect(batch(onChange, 0)).toEqual([
        path.join(dir, 'openapi.yaml'),
        path.join(dir, 'paths/pets.yaml'),
      ]);
    });
  });

  it('keeps reporting a file after it was replaced by a rename (git checkout, sed -i)', async () => {
    await watching('renamed', async (dir, onChange) => {
      const file = path.join(dir, 'openapi.yaml');
      const edits = [
        () => rename(path.join(dir, 'sed1'), file),
        () => writeFile(file, 'edited in place after a rename'),
        () => rename(path.join(dir, 'sed2'), file),
        () => writeFile(file, 'edited in place after two renames'),
      ];
      await writeFile(path.join(dir, 'sed1'), 'replaced once');
      await writeFile(path.join(dir, 'sed2'), 'replaced twice');
      await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(1), {
        timeout: 5_000,
      });
      for (const [i, edit] of edits.entries()) {
        await edit();
        await vi.waitFor(() => expect(onChange).toHaveBeenCalledTimes(i + 2), {
          timeout: 5_000,
        });
        expect(batch(onChange, i + 1)).toContain(file);
      }
    });
  });
});
