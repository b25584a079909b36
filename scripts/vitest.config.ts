import { defineProject } from 'vitest/config';

// Tests of the repository's own tooling (scripts/*.mjs): the breaking-change gate, the
// dev loop's pipeline, the workflow runner.
export default defineProject({
  test: {
    name: 'scripts',
    include: ['test/**/*.test.{ts,mjs}'],
    testTimeout: 60_000,
  },
});
