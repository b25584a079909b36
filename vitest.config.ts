import { defineConfig } from 'vitest/config';

// One run over every package; each package's own vitest.config.ts says what it tests.
export default defineConfig({
  test: {
    projects: ['packages/*', 'scripts'],
    reporters: ['default', './scripts/vitest-summary-reporter.mjs'],
  },
});
