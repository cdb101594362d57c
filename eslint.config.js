import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
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
      'contracts/hook-pact',
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
  // No module of the app imports itself back, through others or through an import() (a route
  // and its page once did): each module's place in the layers below is then plain to see.
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  // No module-level `let`: state belongs to what owns it (a store's closure, a request's
  // objects), so that tests make it fresh and two of them never share it. An exception is
  // written where it stands, named and with its reason:
  //   // eslint-disable-next-line no-restricted-syntax -- module state: <why>
  {
    files: ['src/**/*.{ts,tsx}', 'host/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'Program > VariableDeclaration[kind="let"], Program > ExportNamedDeclaration > VariableDeclaration[kind="let"]',
          message: 'No module-level let: keep the state in a closure or object that owns it.',
        },
      ],
    },
  },
  // Imports flow one way (ARCHITECTURE.md): lib, api, ui -> features -> app.
  {
    files: ['src/lib/**', 'src/api/**', 'src/ui/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(features|app)(/|$)',
              message: 'lib, api and ui sit below features and app: move the shared piece down.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+app(/|$)',
              message: 'Features sit below the app shell: move the shared piece down.',
            },
            {
              // `../basket` is that feature's index; `../basket/store` is its insides.
              regex: '^\\.\\./[^./][^/]*/',
              message: "Use the other feature's index (e.g. '../basket'), not its files.",
            },
          ],
        },
      ],
    },
  },
  // The Node host (host/) reaches the app's code only through its server entry, loaded once at
  // start (host/app-entry.ts): a module of src/ imported here too would be loaded twice. Of the
  // stub it knows only the embedded stub's start: it runs against a real backend without it.
  {
    files: ['host/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+src/(?!server-entry/entry-server\\.tsx$)',
              message: "Reach the app's code through its entry (host/app-entry.ts).",
            },
            {
              regex: '^(\\.\\./)+src/server-entry/entry-server\\.tsx$',
              allowTypeImports: true,
              message: 'Its types only: the entry itself comes from host/app-entry.ts.',
            },
            {
              regex: '^(\\.\\./)+stub-server/(?!app\\.ts$)',
              message:
                'The production host starts the embedded stub (stub-server/app.ts) and imports nothing else of it.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests may assert presence with `!` where a failing lookup already fails the test.
    files: ['tests/**', 'contracts/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
