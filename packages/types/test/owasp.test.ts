/**
 * `npm run lint:owasp`: Spectral's OWASP API Security ruleset (.spectral.yaml) on the
 * bundle. It must find no error, and still find one where the contract breaks a rule, so
 * the rules this project changed (the rate-limit one) keep their teeth.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleJsonPath, description, type Json } from './description.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const spectral = path.join(repoRoot, 'node_modules/@stoplight/spectral-cli/dist/index.js');

interface Finding {
  code: string;
  severity: number; // 0 error, 1 warning
  path: string[];
  source: string;
}

/** [rule, how a copy of the bundle breaks it, the edit]. */
const cases: [string, string, (d: Json) => void][] = [
  [
    'owasp:api4:2023-rate-limit',
    'a 200 without any rate-limit header',
    (d) => {
      const headers = d.paths['/pets'].get.responses['200'].headers;
      for (const name of Object.keys(headers)) {
        if (/RateLimit/i.test(name)) delete headers[name];
      }
    },
  ],
  [
    'owasp:api4:2023-string-limit',
    'a string header without maxLength',
    (d) => delete d.components.headers['X-Request-Id'].schema.maxLength,
  ],
  [
    'owasp:api4:2023-integer-format',
    'an integer header without format',
    (d) => delete d.components.headers['Retry-After'].schema.format,
  ],
  [
    'owasp:api8:2023-define-cors-origin',
    'a response without Access-Control-Allow-Origin',
    (d) => delete d.components.responses.NotModified.headers['Access-Control-Allow-Origin'],
  ],
  [
    'owasp:api9:2023-inventory-access',
    'a server without x-internal',
    (d) => delete d.servers[0]['x-internal'],
  ],
];

let scratch: string;
/** Findings per linted file (the bundle, then `case-<n>.json`). */
const findings = new Map<string, Finding[]>();

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'petstore-owasp-'));
  const files = [bundleJsonPath];
  for (const [index, [, , edit]] of cases.entries()) {
    const copy = structuredClone(description);
    edit(copy);
    files.push(path.join(scratch, `case-${index}.json`));
    await writeFile(files[files.length - 1] ?? '', JSON.stringify(copy));
  }
  // The repository's ruleset, as `npm run lint:owasp` runs it, over every file at once.
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [spectral, 'lint', ...files, '--ruleset', '.spectral.yaml', '--format', 'json', '--quiet'],
      { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 },
      (error, out) => (out ? resolve(out) : reject(error ?? new Error('no output'))),
    );
  });
  for (const file of files) findings.set(path.basename(file), []);
  for (const finding of JSON.parse(stdout) as Finding[]) {
    findings.get(path.basename(finding.source))?.push(finding);
  }
}, 30_000);

afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('the OWASP API Security checks', () => {
  it('find no error in the bundle, with only the numeric-ids rule off', () => {
    const inBundle = findings.get(path.basename(bundleJsonPath)) ?? [];
    expect(inBundle.filter((f) => f.severity === 0)).toEqual([]);
    // One warning is known and kept: an error message is free text (no pattern fits it).
    expect(inBundle.map((f) => [f.code, f.path.join('.')])).toEqual([
      ['owasp:api4:2023-string-restricted', 'components.schemas.ErrorMessage'],
    ]);
  });

  it.each(cases.map((c, index) => [...c, index] as const))(
    'report %s on %s',
    (rule, _what, _edit, index) => {
      const errors = (findings.get(`case-${index}.json`) ?? []).filter((f) => f.severity === 0);
      expect([...new Set(errors.map((f) => f.code))]).toEqual([rule]);
    },
  );
});
