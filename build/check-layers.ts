// The layering rule of docs/architecture.md, as a check: which folder may import what.
// Run alone with `npm run check:layers`; the unit tests run it too, so a violation fails `npm test`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Layer =
  | 'contract'
  | 'common'
  | 'core'
  | 'service'
  | 'filter-language'
  | 'electron'
  | 'web'
  | 'preload'
  | 'renderer'
  | 'other';

export interface Violation {
  file: string;
  line: number;
  specifier: string;
  rule: string;
}

const SOURCE_FILE = /\.(ts|mts|cts|js|mjs|cjs|svelte)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'out', 'dist', '.git', 'test-results', 'playwright-report']);
const SCANNED_ROOTS = ['main', 'preload', 'renderer'];

// import x from 'a' | export { x } from 'a' | import 'a' | import('a') | require('a')
const IMPORT_PATTERN =
  /(?:\bimport\s[^'"`;]*?\bfrom\s*|\bexport\s[^'"`;]*?\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

export function layerOf(root: string, file: string): Layer {
  const parts = relative(root, file).split(sep);
  if (parts[0] === 'main' && parts.length > 2) {
    const layer = parts[1] as Layer;
    if (['contract', 'common', 'core', 'service', 'filter-language', 'electron', 'web'].includes(layer)) return layer;
    return 'other';
  }
  if (parts[0] === 'preload') return 'preload';
  if (parts[0] === 'renderer') return 'renderer';
  return 'other';
}

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
  other: ['contract', 'common', 'core', 'service', 'filter-language', 'electron', 'web', 'preload', 'renderer'],
};

const MAY_IMPORT_ELECTRON: readonly Layer[] = ['electron', 'preload'];
/** The contract is shared with the sandboxed renderer: it may use nothing but its schema library. */
const CONTRACT_PACKAGES = new Set(['zod']);

function isElectronModule(specifier: string): boolean {
  return specifier === 'electron' || specifier.startsWith('electron/');
}

export function checkFile(root: string, file: string, text: string): Violation[] {
  const from = layerOf(root, file);
  const violations: Violation[] = [];
  for (const match of text.matchAll(IMPORT_PATTERN)) {
    const specifier = match[1] as string;
    const line = text.slice(0, match.index).split('\n').length;
    const at = { file: relative(root, file), line, specifier };
    if (isElectronModule(specifier)) {
      if (!MAY_IMPORT_ELECTRON.includes(from)) {
        violations.push({ ...at, rule: `'electron' may be imported only in main/electron and preload, not in ${from}` });
      }
      continue;
    }
    if (!specifier.startsWith('.')) {
      const isNodeBuiltin = specifier.startsWith('node:');
      if (from === 'contract' && !CONTRACT_PACKAGES.has(specifier)) {
        violations.push({ ...at, rule: 'main/contract may import only zod' });
      } else if (from === 'common') {
        violations.push({ ...at, rule: 'main/common is pure: it may import no package and no Node built-in' });
      } else if ((from === 'renderer' || from === 'preload') && isNodeBuiltin) {
        violations.push({ ...at, rule: `${from} runs sandboxed and may not import Node built-ins` });
      }
      continue;
    }
    const target = resolve(dirname(file), specifier);
    const to = layerOf(root, target);
    if (to !== from && !ALLOWED[from].includes(to)) {
      violations.push({ ...at, rule: `${from} may not import from ${to}` });
    }
  }
  return violations;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (SOURCE_FILE.test(name)) yield path;
  }
}

export function checkLayers(root: string): Violation[] {
  const violations: Violation[] = [];
  for (const top of SCANNED_ROOTS) {
    const dir = join(root, top);
    try {
      statSync(dir);
    } catch {
      continue;
    }
    for (const file of sourceFiles(dir)) violations.push(...checkFile(root, file, readFileSync(file, 'utf8')));
  }
  return violations;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const violations = checkLayers(root);
  for (const v of violations) console.error(`${v.file}:${v.line}: imports '${v.specifier}': ${v.rule}`);
  console.log(violations.length === 0 ? 'Layers: no violations.' : `Layers: ${violations.length} violation(s).`);
  process.exitCode = violations.length === 0 ? 0 : 1;
}
