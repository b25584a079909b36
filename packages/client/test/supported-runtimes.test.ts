import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};
const pinned = readFileSync(new URL('../../../.node-version', import.meta.url), 'utf8').trim();

// The client supports the maintained Node.js LTS lines its engines name; CI runs this package's
// tests on the project's pinned Node.js 24 and again on Node.js 22 (npm run test:node22), and
// test/browser runs it in Chromium.
describe('the runtimes the client states', () => {
  it('include the Node.js this run is on: the pinned one, or the line a CI step asked for', () => {
    expect(process.versions.node).toBe(process.env.PETSTORE_TEST_NODE ?? pinned);
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });

  it.each(['22', '24'])(
    'include every Node.js %s release from the first the engines allow',
    (line) => {
      expect(semver.intersects(pkg.engines.node, `^${line}.14.0`)).toBe(true);
    },
  );

  it('exclude Node.js 20, which is past its end of life', () => {
    expect(semver.intersects(pkg.engines.node, '20.x')).toBe(false);
  });
});
