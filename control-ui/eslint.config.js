// The repository's rules, plus the UI's layering (STYLE.md §7): components call actions, actions
// call the API and write stores, and stores are reached only through src/stores/index.ts.
import rootConfig from '../eslint.config.js';

const storesOnlyThroughIndex = {
  group: ['**/stores/*', '!**/stores/index.ts'],
  message: 'Reach stores through src/stores/index.ts.',
};

export default [
  ...rootConfig,
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/stores/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [storesOnlyThroughIndex] }],
    },
  },
  {
    // Screens never talk HTTP themselves: they call an action, which does.
    files: ['src/components/**', 'src/features/**', 'src/pages/**', 'src/app/**'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [storesOnlyThroughIndex, { group: ['**/api/*'], message: 'Call an action from src/actions/; actions talk to the API.' }],
        },
      ],
    },
  },
];
