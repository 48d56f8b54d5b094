import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      // Unit tests sit beside the code; browser flows live in e2e/ and run under Playwright.
      include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
      environment: 'node',
    },
  }),
);
