import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';

// import-x/no-cycle (in the lint) follows only imports that run: it skips `import type`. A cycle
// through types still ties two modules together, so this follows every import, types too, as
// TypeScript reads them, and finds the groups of modules that reach each other.

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SOURCE = /\.(ts|svelte)$/;
const SCRIPT = /<script[^>]*>([\s\S]*?)<\/script>/g;
/** The renderer's name for main/contract (vite.config.ts). */
const CONTRACT_ALIAS = '$contract/';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE.test(name) ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const code = file.endsWith('.svelte') ? [...text.matchAll(SCRIPT)].map((m) => m[1]).join('\n') : text;
  return ts
    .preProcessFile(code, true, true)
    .importedFiles.map((f) => f.fileName)
    .map((name) => (name.startsWith(CONTRACT_ALIAS) ? join(projectRoot, 'main/contract', name.slice(CONTRACT_ALIAS.length)) : name))
    .filter((name) => name.startsWith('.') || name.startsWith('/'))
    .map((name) => resolve(dirname(file), name));
}

/** The groups of two or more modules that import each other, through any number of steps (Tarjan's). */
function cycles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((to) => files.includes(to))]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      group.push(w);
    } while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return found;
}

describe('import cycles, types included', () => {
  let root: string | undefined;
  afterEach(() => root && rmSync(root, { recursive: true, force: true }));

  it('are none in the app', () => {
    const files = ['main', 'preload', 'renderer'].flatMap((dir) => sourceFiles(join(projectRoot, dir)));
    expect(cycles(files).map((group) => group.map((f) => relative(projectRoot, f)))).toEqual([]);
  });

  it('are found through type imports and components', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
    root = dir;
    writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport interface A { b: B }\n");
    writeFileSync(join(dir, 'b.ts'), "import { c } from './C.svelte';\nexport type B = typeof c;\n");
    writeFileSync(join(dir, 'C.svelte'), '<script lang="ts">\n  import type { A } from \'./a.ts\';\n</script>\n');
    writeFileSync(join(dir, 'd.ts'), "import type { A } from './a.ts';\n");
    expect(cycles(sourceFiles(dir)).map((group) => group.map((f) => relative(dir, f)))).toEqual([['C.svelte', 'a.ts', 'b.ts']]);
  });
});
