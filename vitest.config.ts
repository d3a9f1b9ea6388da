import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: { '#test-engine': new URL('./tests/setup/engine.node.ts', import.meta.url).pathname } },
        test: {
          name: 'node',
          environment: 'node',
          include: ['api/**/*.test.ts', 'db/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
        },
      },
    ],
  },
});
