import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * How the repository lints its own code: typescript-eslint's type-checked recommendations on the
 * shipped TypeScript of every package (each file checked with the tsconfig nearest to it), its
 * syntax-only recommendations on the tests (whose fakes stand in for typed APIs), and ESLint's
 * on the build and setup scripts. The plugin's examples are linted by the plugin itself
 * (`eslint-plugin/examples/eslint.config.mjs`, run by `npm start`).
 */
export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/out/**',
      '**/.cache/**',
      'lessons/generated/**',
      'eslint-plugin/examples/**',
      'test/eslint-plugin/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Syntax nodes are told apart by their `type` string (`node.type === 'CallExpression'`), as ESLint's own rules do.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      // A leading underscore marks a parameter or a part of a destructuring left out on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  { files: ['extension/webview/**'], languageOptions: { globals: globals.browser } },
  { files: ['test/**'], ...tseslint.configs.disableTypeChecked },
  { files: ['**/*.{js,mjs,cjs}'], ...tseslint.configs.disableTypeChecked },
);
