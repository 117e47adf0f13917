import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { longFunctions } from './function-lengths.ts';
import { root, sourceFiles } from './source-files.ts';

// Issue 34's measure: no function over 80 lines, so that each one can be read on one screen and
// a long factory closure is split into named parts.

const MAX_LINES = 80;

/** `path:line name (N lines)` for each function of `path` over the limit. */
function over(path: string, text: string): string[] {
  return longFunctions(path, text, MAX_LINES).map((f) => `${path}:${f.line} ${f.name} (${f.bodyLines} lines)`);
}

const files = sourceFiles();

/** A function declared by `head` whose body spans `bodyLines` lines, braces included, and `tail` after it. */
function synthetic(head: string, bodyLines: number, tail = ''): string {
  const inner = Array.from({ length: bodyLines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
  return `${head} {\n${inner}\n}${tail}\n`;
}

describe('function size check', () => {
  it('passes a function of exactly the limit and fails one a line longer', () => {
    const text = synthetic('export function fits()', MAX_LINES) + synthetic('function tooLong()', MAX_LINES + 1);
    expect(over('main/fixture.ts', text)).toEqual([`main/fixture.ts:${MAX_LINES + 1} tooLong (${MAX_LINES + 1} lines)`]);
  });

  it('names methods, getters, constructors and arrow functions by their class or variable', () => {
    const text = [
      'class Store {',
      synthetic('  constructor()', 90),
      synthetic('  load()', 90),
      synthetic('  get size()', 90),
      synthetic('  #flush = () =>', 90, ';'),
      '}',
      synthetic('const open = async () =>', 90, ';'),
      synthetic('export default function ()', 90),
    ].join('\n');
    expect(longFunctions('main/fixture.ts', text, MAX_LINES).map((f) => f.name)).toEqual([
      'Store.constructor',
      'Store.load',
      'Store.get size',
      'Store.#flush',
      'open',
      '(anonymous)',
    ]);
  });

  it('counts a nested function inside its parent and on its own', () => {
    const text = `function outer() {\n${synthetic('  function inner()', 85)}}\n`;
    expect(longFunctions('main/fixture.ts', text, MAX_LINES).map((f) => [f.name, f.bodyLines])).toEqual([
      ['outer', 87],
      ['inner', 85],
    ]);
  });

  it('reads the script blocks of a .svelte file, with their lines in the file', () => {
    const text = `<p>one</p>\n<p>two</p>\n<script lang="ts">\n${synthetic('  function handle()', 81)}</script>\n<div></div>\n`;
    expect(over('renderer/src/Fixture.svelte', text)).toEqual(['renderer/src/Fixture.svelte:4 handle (81 lines)']);
  });

  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((path) => path.endsWith('.svelte'))).toBe(true);
  });

  it(`keeps every function at ${MAX_LINES} lines or fewer`, () => {
    const found = files.flatMap((path) => over(path, readFileSync(join(root, path), 'utf8')));
    expect(found).toEqual([]);
  });
});
