import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the build script is plain JavaScript without declarations
import { buildDocs } from '../../../scripts/build-docs.mjs';

let scratch: string;
let html: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'petstore-docs-'));
  html = await readFile(await buildDocs(path.join(scratch, 'index.html')), 'utf8');
}, 60_000);

afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('the rendered reference', { timeout: 30_000 }, () => {
  it('loads no script, style or font from the network', () => {
    const external = [
      ...html.matchAll(/<script\b[^>]*\bsrc\s*=\s*["']?(?:https?:)?\/\/[^"'\s>]+/gi),
      ...html.matchAll(/<link\b[^>]*\bhref\s*=\s*["']?(?:https?:)?\/\/[^"'\s>]+/gi),
      ...html.matchAll(/@import\s+(?:url\()?\s*["']?(?:https?:)?\/\//gi),
      ...html.matchAll(/url\(\s*["']?(?:https?:)?\/\/[^)]*\.(?:woff2?|ttf|otf|eot|css)/gi),
      ...html.matchAll(/fonts\.(?:googleapis|gstatic)\.com/gi),
    ].map((match) => match[0]);
    expect(external).toEqual([]);
  });

  it('inlines Redoc and turns its telemetry off', () => {
    const inlineScripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)];
    const largest = Math.max(...inlineScripts.map((match) => match[1]?.length ?? 0));
    expect(largest).toBeGreaterThan(1_000_000); // Redoc itself, not a loader for it
    expect(html).toContain('"disableTelemetry":true');
  });

  it('draws the badge logo inline: nothing from cdn.redoc.ly, a data: wordmark instead', () => {
    expect(html).not.toContain('cdn.redoc.ly');
    expect(html).toContain(`data:image/svg+xml,${encodeURIComponent('<svg')}`);
    expect(html).toContain(encodeURIComponent('>Redocly</text>'));
  });

  it('wraps the code blocks of descriptions', () => {
    expect(html).toMatch(
      /\[data-component-name='Markdown\/Markdown'\] pre \{\s*white-space: pre-wrap/,
    );
  });

  it('turns the telemetry off from redocly.yaml alone, without REDOCLY_TELEMETRY', async () => {
    const { REDOCLY_TELEMETRY: _off, ...env } = process.env;
    const file = path.join(scratch, 'plain-cli.html');
    const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
    await promisify(execFile)(
      process.execPath,
      [
        'node_modules/@redocly/cli/bin/cli.js',
        'build-docs',
        'packages/types/openapi/openapi.yaml',
        '--inlineBundle',
        '-o',
        file,
      ],
      { cwd: repoRoot, env },
    );
    expect(await readFile(file, 'utf8')).toContain('"disableTelemetry":true');
  });

  it('renders the three operations, the deprecation and the rate-limit plans', () => {
    for (const text of [
      'List animals',
      'Add an animal',
      'Get an animal',
      'Deprecated',
      'Enterprise',
    ]) {
      expect(html).toContain(text);
    }
  });
});
