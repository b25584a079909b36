import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { link, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChangelog } from '../api-breaking/changelog-file.mjs';
import { buildDocs } from '../build-docs.mjs';
import { bundle, root, types } from '../generate.mjs';
import { intoPlace, temporaryPrefix, writeIntoPlace } from '../write-into-place.mjs';

let scratch = '';
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'petstore-into-place-'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A folder of its own holding `name` with `contents`; resolves to the file's path. */
async function fileWith(folder, name, contents) {
  const dir = await mkdtemp(path.join(scratch, `${folder}-`));
  const file = path.join(dir, name);
  await writeFile(file, contents);
  return file;
}

describe('intoPlace', () => {
  it('replaces the target with what was written, and leaves nothing else in its folder', async () => {
    const target = await fileWith('whole', 'openapi.yaml', 'old\n');
    await writeIntoPlace(target, 'new\n');
    expect(await readFile(target, 'utf8')).toBe('new\n');
    expect(await readdir(path.dirname(target))).toEqual(['openapi.yaml']);
  });

  it('gives the producer a path ending in the target name, for tools that go by extension', async () => {
    const target = await fileWith('name', 'index.html', 'old');
    let given = '';
    await intoPlace(target, async (to) => {
      given = to;
      await writeFile(to, 'new');
    });
    expect(path.dirname(given)).toBe(path.dirname(target));
    expect(path.basename(given)).toMatch(/^\.tmp-\d+-[0-9a-f]{8}-index\.html$/);
  });

  it('leaves the target as it was and removes its part when the producer fails', async () => {
    const target = await fileWith('failed', 'schema.ts', 'old\n');
    const failure = intoPlace(target, async (to) => {
      await writeFile(to, 'half of the new');
      throw new Error('redocly build-docs failed');
    });
    await expect(failure).rejects.toThrow('redocly build-docs failed');
    expect(await readFile(target, 'utf8')).toBe('old\n');
    expect(await readdir(path.dirname(target))).toEqual(['schema.ts']);
  });

  it('leaves the target whole when its process is killed part way through the write', async () => {
    const target = await fileWith('killed', 'openapi.json', '{"previous":true}\n');
    // A writer that has written part of the new file, says so, and then hangs until killed.
    const program = `
      import { open } from 'node:fs/promises';
      import { intoPlace } from ${JSON.stringify(path.join(root, 'scripts/write-into-place.mjs'))};
      await intoPlace(${JSON.stringify(target)}, async (to) => {
        const file = await open(to, 'w');
        await file.write('{"paths":{"/pets":');
        process.stdout.write('part written\\n');
        await new Promise(() => setInterval(() => {}, 1000));
      });`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', program], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [said] = await once(child.stdout, 'data');
    expect(String(said)).toBe('part written\n');
    child.kill('SIGKILL');
    await once(child, 'exit');

    expect(await readFile(target, 'utf8')).toBe('{"previous":true}\n');
    const left = (await readdir(path.dirname(target))).filter((f) => f !== 'openapi.json');
    expect(left).toHaveLength(1);
    expect(left[0].startsWith(temporaryPrefix)).toBe(true);
    expect(await readFile(path.join(path.dirname(target), left[0]), 'utf8')).toBe(
      '{"paths":{"/pets":',
    );
    // What such a kill leaves beside a generated file is never committed.
    const inRepo = path.join('packages/types/openapi', left[0]);
    const { stdout } = await promisify(execFile)('git', ['check-ignore', inRepo], { cwd: root });
    expect(stdout.trim()).toBe(inRepo);

    // The next write of the same target removes what the dead writer left, and only that: a
    // running process's file (this one's own too), or another target's, stays.
    const dir = path.dirname(target);
    const running = `${temporaryPrefix}${process.ppid}-0123abcd-openapi.json`;
    const own = `${temporaryPrefix}${process.pid}-4567cdef-openapi.json`;
    const otherTarget = left[0].replace(/openapi\.json$/, 'openapi.yaml');
    // A target whose name ends in this one's, left by the same dead writer.
    const longerName = left[0].replace(/openapi\.json$/, 'x-openapi.json');
    await writeFile(path.join(dir, running), 'a writer still at work');
    await writeFile(path.join(dir, own), 'this process at work');
    await writeFile(path.join(dir, otherTarget), 'another target');
    await writeFile(path.join(dir, longerName), 'another target');
    await writeIntoPlace(target, '{"next":true}\n');
    expect(await readFile(target, 'utf8')).toBe('{"next":true}\n');
    expect((await readdir(dir)).sort()).toEqual(
      [otherTarget, longerName, running, own, 'openapi.json'].sort(),
    );
  });
});

describe('the generators', () => {
  // A rename puts a new file in place and leaves the old one's other name (a hard link) as it
  // was; a direct write would change what both names show.
  it('write the bundle, the types, the docs and the changelog through a rename', async () => {
    const out = await mkdtemp(path.join(scratch, 'generators-'));
    await mkdir(path.join(out, 'openapi'));
    await mkdir(path.join(out, 'src'));
    await mkdir(path.join(out, 'docs'));
    const targets = [
      'openapi/openapi.yaml',
      'openapi/openapi.json',
      'src/schema.ts',
      'docs/index.html',
      'CHANGELOG.md',
    ].map((file) => path.join(out, file));
    for (const target of targets) {
      await writeFile(target, 'old\n');
      await link(target, `${target}.other-name`);
    }
    await bundle(out);
    await types(out);
    await buildDocs(path.join(out, 'docs/index.html'), {
      bundleFile: path.join(out, 'openapi/openapi.yaml'),
    });
    await writeChangelog(path.join(out, 'openapi/openapi.json'), path.join(out, 'CHANGELOG.md'));
    for (const target of targets) {
      expect(await readFile(target, 'utf8'), target).not.toBe('old\n');
      expect(await readFile(`${target}.other-name`, 'utf8'), target).toBe('old\n');
    }
  });
});
