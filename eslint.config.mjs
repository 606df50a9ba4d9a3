import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * How the repository lints its own code: typescript-eslint's type-checked recommendations on the
 * TypeScript of every package (each file checked with the tsconfig nearest to it), and ESLint's
 * recommendations on the build and setup scripts. The plugin's examples are linted by the plugin
 * itself (`eslint-plugin/examples/eslint.config.mjs`, run by `npm start`).
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
    },
  },
  { files: ['extension/webview/**'], languageOptions: { globals: globals.browser } },
  { files: ['**/*.{js,mjs,cjs}'], ...tseslint.configs.disableTypeChecked },
);
