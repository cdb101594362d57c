import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'reports',
      'coverage',
      'node_modules',
      '.tmp',
      'contracts/pacts',
      'stub-server/data',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.{js,cjs,mjs}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Records keyed by id (the basket) drop entries with `delete`; that is what they are for.
      '@typescript-eslint/no-dynamic-delete': 'off',
    },
  },
  {
    // Tests may assert presence with `!` where a failing lookup already fails the test.
    files: ['tests/**', 'contracts/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
