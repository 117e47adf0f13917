// The project's lint: the layers (which folder may import what, below), no import cycles, one
// import order and no unused code. Syntax-only (no type information), so it stays fast.
import { createRequire } from 'node:module';
import type { Linter } from 'eslint';
import { defineConfig, globalIgnores } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import svelte from 'eslint-plugin-svelte';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const typescriptParser = createRequire(import.meta.resolve('typescript-eslint')).resolve('@typescript-eslint/parser');

/** Where each layer lives. Files elsewhere (tests, build scripts, benchmarks) may import anything. */
const LAYER_DIRS = {
  common: 'main/common',
  contract: 'main/contract',
  'filter-language': 'main/filter-language',
  core: 'main/core',
  service: 'main/service',
  web: 'main/web',
  electron: 'main/electron',
  preload: 'preload',
  renderer: 'renderer',
} as const;

type Layer = keyof typeof LAYER_DIRS;

/** Which layers each layer may import from (its own layer always allowed). */
const ALLOWED: Record<Layer, readonly Layer[]> = {
  // pure rules every layer shares (Dune's types); it imports nothing
  common: [],
  contract: ['common'],
  'filter-language': ['common'],
  core: ['contract', 'common', 'filter-language'],
  service: ['common', 'filter-language'],
  web: ['contract', 'common', 'core', 'service', 'filter-language'],
  electron: ['contract', 'common', 'core', 'service', 'filter-language'],
  preload: ['contract'],
  renderer: ['contract', 'common', 'filter-language'],
};

const layers = Object.keys(LAYER_DIRS) as Layer[];

const layerZones = layers.flatMap((from) =>
  layers
    .filter((to) => to !== from && !ALLOWED[from].includes(to))
    .map((to) => ({ target: LAYER_DIRS[from], from: LAYER_DIRS[to], message: `${from} may not import from ${to}` })),
);

const filesOf = (...names: Layer[]) => names.map((name) => `${LAYER_DIRS[name]}/**`);

/**
 * Forbids package specifiers matching `pattern` in static imports and re-exports, dynamic
 * `import()` and `require()`, saying `message`. `pattern` is a regex source for the whole specifier.
 */
function forbidPackages(pattern: string, message: string): Linter.RulesRecord {
  const inSelector = `/${pattern.replaceAll('/', '\\/')}/`;
  return {
    'no-restricted-imports': ['error', { patterns: [{ regex: pattern, message }] }],
    'no-restricted-syntax': [
      'error',
      { selector: `ImportExpression > Literal.source[value=${inSelector}]`, message },
      { selector: `CallExpression[callee.name='require'] > Literal.arguments[value=${inSelector}]`, message },
    ],
  };
}

const ELECTRON = '^electron(/|$)';
const HTTP_BY_REQUIRE = "take node:http's values with createRequire: an ESM import of it loads Node's fetch in the thread";
/** The CommonJS packages the app's threads load at start (see below). */
const COMMONJS_PACKAGES = ['@duckdb/node-api', 'ws', '@napi-rs/keyring'];
const COMMONJS_BY_REQUIRE = 'a CommonJS package: take its values with createRequire, so that Node does not lex it for its exports';
const ANY_PACKAGE = '^[^.]';

export default defineConfig(
  globalIgnores(['**/node_modules/', 'out/', 'dist/', 'test-results/', 'playwright-report/', '.tmp/', '.scratch/']),
  {
    files: ['**/*.{ts,js,mjs,cjs,svelte}'],
    languageOptions: {
      parser: tseslint.parser,
      ecmaVersion: 'latest',
      sourceType: 'module',
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX, '@typescript-eslint': tseslint.plugin },
    settings: {
      // `$contract/…` is the renderer's name for main/contract (vite.config.ts): resolved, so the layer rules see where it leads
      'import-x/resolver-next': [
        createNodeResolver({ extensions: ['.ts', '.js', '.svelte', '.json'], alias: { $contract: [`${root}/main/contract`] } }),
      ],
      'import-x/extensions': ['.ts', '.js', '.svelte'],
      // no-cycle reads the modules a file imports: TypeScript's parser reads them whatever parser
      // the importing file needs; components are not followed, so a cycle must pass through modules.
      'import-x/parsers': { [typescriptParser]: ['.ts', '.js'] },
      'import-x/ignore': ['\\.svelte$'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: layerZones }],
      'import-x/first': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'],
          'newlines-between': 'never',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { args: 'after-used', argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      'no-unused-private-class-members': 'error',
      'no-unused-labels': 'error',
    },
  },
  // Svelte components and rune modules: parsed by Svelte's parser, their scripts by TypeScript's.
  svelte.configs.base,
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] } },
  },
  // Only the Electron host and preload may use Electron.
  {
    files: filesOf('core', 'service', 'filter-language', 'web', 'renderer'),
    rules: forbidPackages(ELECTRON, "'electron' may be imported only in main/electron and preload"),
  },
  // The contract is shared with the sandboxed renderer: it may use nothing but its schema library.
  { files: filesOf('contract'), rules: forbidPackages('^(?!zod$)[^.]', 'main/contract may import only zod') },
  {
    files: filesOf('common'),
    rules: forbidPackages(ANY_PACKAGE, 'main/common is pure: it may import no package and no Node built-in'),
  },
  // The renderer and preload run sandboxed: no Node built-ins.
  { files: filesOf('renderer', 'preload'), rules: { 'import-x/no-nodejs-modules': 'error' } },
  // Modules the app takes with require (createRequire), never with an ESM import, whose cost each
  // thread keeps as long as it runs; their types may be imported. An ESM import of node:http reads
  // every one of its exports, and reading WebSocket loads Node's fetch (undici, web streams). One
  // of a CommonJS package makes Node lex its source, and each file it requires, for the names it
  // exports, at every start and in each thread: for DuckDB's API, enough lexing that V8 compiles
  // the lexer with its optimizing compiler, whose code then stays resident.
  {
    files: ['main/**'],
    rules: {
      // typescript-eslint's rule, not ESLint's, which the layer rules above set for these files
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...['node:http', 'http'].map((name) => ({ name, allowTypeImports: true, message: HTTP_BY_REQUIRE })),
            ...COMMONJS_PACKAGES.map((name) => ({ name, allowTypeImports: true, message: COMMONJS_BY_REQUIRE })),
          ],
        },
      ],
    },
  },
);
