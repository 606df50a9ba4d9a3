import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * How the repository lints its own TypeScript: typescript-eslint's type-checked recommendations,
 * with the project's own tsconfig for each package. The other packages' configs call this too.
 */
export function sourceConfig(dir, ignores = []) {
  return tseslint.config(
    { ignores: ['dist/**', 'out/**', ...ignores] },
    js.configs.recommended,
    ...tseslint.configs.recommendedTypeChecked,
    {
      languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: dir } },
      rules: {
        // Syntax nodes are told apart by their `type` string (`node.type === 'CallExpression'`), as ESLint's own rules do.
        '@typescript-eslint/no-unsafe-enum-comparison': 'off',
      },
    },
    { files: ['**/*.{js,mjs,cjs}'], ...tseslint.configs.disableTypeChecked },
  );
}

// The examples are linted by the plugin itself (examples/eslint.config.mjs, `npm start`); eval/ holds labels and scripts for other repositories.
export default sourceConfig(import.meta.dirname, ['examples/**', 'eval/**']);
