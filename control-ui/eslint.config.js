// The repository's rules, plus the UI's layering (STYLE.md §7): components call actions, actions
// call the API and write stores, and stores are reached only through src/stores/index.ts.
import rootConfig from '../eslint.config.js';

/** A zustand store's hook as stores/index.ts names it (`useStudioStore`). */
const storeHook = '/^use[A-Z]\\w*Store$/';

/** The input types the kit has no control for; every other input is a text input. */
const nonTextInput = '/^(checkbox|radio|range|file|color|hidden)$/';

const noStoreWrites = [
  {
    selector: `MemberExpression[object.name=${storeHook}][property.name='setState']`,
    message: 'Components do not write stores: call an action from src/actions/, which does.',
  },
  {
    selector: `VariableDeclarator[init.name=${storeHook}] > ObjectPattern > Property[key.name='setState']`,
    message: 'Components do not write stores: call an action from src/actions/, which does.',
  },
];

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
    // Screens never talk HTTP themselves: they call an action, which does. Nor do they write a
    // store: they read it through its hook and change it through an action (one data flow).
    files: ['src/components/**', 'src/features/**', 'src/pages/**', 'src/app/**'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            storesOnlyThroughIndex,
            { group: ['**/api/*'], message: 'Call an action from src/actions/; actions talk to the API.' },
            {
              group: ['**/stores/index.ts'],
              importNamePattern: '^(write|set|clear|reset)[A-Z]|^initial[A-Z]\\w*State$',
              message: 'Components do not write stores: call an action from src/actions/, which does.',
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', ...noStoreWrites],
    },
  },
  {
    // Screens build their forms from the kit (src/components/FormField.tsx: TextField, or Input and
    // TextArea inside a FormField), which ties label, hint and error to the control and gives every
    // form one look. Checkboxes, radios, ranges, files and colours have no kit control yet.
    files: ['src/features/**', 'src/pages/**'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...noStoreWrites,
        {
          selector: `JSXOpeningElement[name.name='input']:not(:has(JSXAttribute[name.name='type'][value.value=${nonTextInput}]))`,
          message: 'A text input comes from the kit: TextField, or Input inside a FormField (src/components/FormField.tsx).',
        },
        {
          selector: "JSXOpeningElement[name.name='textarea']",
          message: 'A text area comes from the kit: TextField multiline, or TextArea inside a FormField (src/components/FormField.tsx).',
        },
      ],
    },
  },
];
