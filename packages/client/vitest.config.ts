import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'client',
    include: ['test/**/*.test.ts'],
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './test/tsconfig.json',
    },
  },
});
