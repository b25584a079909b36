import { defineProject } from 'vitest/config';

export default defineProject({
  // Resolve workspace packages to their TypeScript source ("source" export condition), so the
  // tests need no build.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './test/tsconfig.json',
    },
  },
});
