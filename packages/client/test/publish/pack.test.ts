import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realServer, UNKNOWN_KEY } from '../real-server/support.js';

// Publishability: `npm pack` both packages, install the tarballs into an empty project
// outside the workspace (so nothing resolves through the workspace links), then use the
// client from plain JavaScript against a real server and type-check a TypeScript consumer.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const example = fileURLToPath(new URL('../../examples/list-and-create.mjs', import.meta.url));
let project: string;

beforeAll(async () => {
  await run(process.execPath, [tsc, '--build', path.join(root, 'packages/client')], { cwd: root });
  project = await mkdtemp(path.join(tmpdir(), 'petstore-consumer-'));
  const tarballs: string[] = [];
  for (const workspace of ['@petstore/types', '@petstore/client']) {
    const { stdout } = await run(
      'npm',
      ['pack', '--json', '--pack-destination', project, '-w', workspace],
      { cwd: root },
    );
    const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
    tarballs.push(`./${path.basename(packed?.filename ?? '')}`);
  }
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs], {
    cwd: project,
  });
}, 180_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('the packed client', () => {
  it('installs from its tarball with only its declared dependencies', async () => {
    const manifest = JSON.parse(
      await readFile(path.join(project, 'node_modules/@petstore/client/package.json'), 'utf8'),
    ) as { exports: unknown };
    expect(manifest.exports).toEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
    });
    const { stdout } = await run('npm', ['ls', '--all', '--parseable'], { cwd: project });
    const installed = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => path.relative(path.join(project, 'node_modules'), line))
      .filter((name) => name && !name.startsWith('..'))
      .sort();
    expect(installed).toEqual([
      '@petstore/client',
      '@petstore/types',
      'http-link-header',
      'openapi-fetch',
      'openapi-typescript-helpers',
      'quick-lru',
      'structured-headers',
      'uuid',
    ]);
  });

  it('runs the plain-JavaScript example against a real server', async () => {
    const server = await realServer();
    const apiKey = await server.createKey('free');
    await copyFile(example, path.join(project, 'list-and-create.mjs'));
    const { stdout } = await run(process.execPath, ['list-and-create.mjs'], {
      cwd: project,
      env: { ...process.env, PETSTORE_URL: server.baseUrl, PETSTORE_API_KEY: apiKey },
    });
    expect(stdout.split('\n')).toEqual([
      'created pet 1 (Rex)',
      'rate limit: 59/60 left until 2030-01-01T00:01:00.000Z',
      '- 1 Rex',
      '1 available pet(s)',
      '',
    ]);
  });

  it.each([
    {
      what: 'the server is unreachable',
      start: async () => {
        const server = await realServer();
        await server.close(); // its port now refuses connections
        return { url: server.baseUrl, key: UNKNOWN_KEY };
      },
      line: /^Cannot reach the Pet Store API at http:\/\/127\.0\.0\.1:\d+\/v1 \(connect ECONNREFUSED 127\.0\.0\.1:\d+\): POST \/v1\/pets gave up after 4 attempt\(s\) \(last failure: POST \/v1\/pets failed before a response arrived\)$/,
    },
    {
      what: 'the key is wrong',
      start: async () => ({ url: (await realServer()).baseUrl, key: UNKNOWN_KEY }),
      line: /^createPet failed: 401 unauthorized: Missing or invalid API key: send Authorization: Bearer <API_KEY>\. \(check PETSTORE_API_KEY\)$/,
    },
  ])('the example prints one line and exits 1 when $what', async ({ start, line }) => {
    const { url, key } = await start();
    await copyFile(example, path.join(project, 'list-and-create.mjs'));
    const failed = await run(process.execPath, ['list-and-create.mjs'], {
      cwd: project,
      env: { ...process.env, PETSTORE_URL: url, PETSTORE_API_KEY: key },
    }).catch((error: unknown) => error as { code: number; stdout: string; stderr: string });
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    const { stderr } = failed as { stderr: string };
    expect(stderr.split('\n')).toEqual([expect.stringMatching(line), '']);
    expect(stderr).not.toContain(key);
  });

  it('type-checks a TypeScript consumer against the packed declarations', async () => {
    await writeFile(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ['consumer.ts'],
      }),
    );
    await writeFile(
      path.join(project, 'consumer.ts'),
      [
        "import { createPetstoreClient, type PetstoreResult } from '@petstore/client';",
        "import type { Pet } from '@petstore/types';",
        "const client = createPetstoreClient({ baseUrl: 'https://api.petstore.example/v1', apiKey: 'psk_x' });",
        "const created: PetstoreResult<Pet> = await client.createPet({ name: 'Rex', categoryId: 1 });",
        'if (created.data) console.log(created.data.id);',
        '// @ts-expect-error categoryId is required',
        "await client.createPet({ name: 'Rex' });",
        'export {};',
      ].join('\n'),
    );
    await expect(
      run(process.execPath, [tsc, '-p', project], { cwd: project }),
    ).resolves.toMatchObject({
      stdout: '',
    });
  }, 60_000);
});
