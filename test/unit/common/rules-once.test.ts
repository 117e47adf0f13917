import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectSources } from './project-sources.ts';

// Each small rule every layer applies lives in one module of main/common; a copy written again
// elsewhere drifts from it (the service-name rule had two lengths). These tell-tales find a copy.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const files = projectSources(root);

/** A quote character doubled by replace/replaceAll: how a quoting rule is written. */
const doubling = (quote: string) =>
  new RegExp(String.raw`\.replace(All)?\(\s*(['"\x60]${quote}['"\x60]|/${quote}/g)\s*,\s*['"\x60]${quote}${quote}['"\x60]\s*\)`);

const RULES: { rule: string; home: string[]; tellTales: RegExp[] }[] = [
  { rule: 'the {{param}} placeholder', home: ['main/common/parameters.ts'], tellTales: [/\\\{\\\{/] },
  { rule: 'the service-name rule', home: ['main/common/service-name.ts'], tellTales: [/\[A-Za-z\]\[A-Za-z0-9_\]/] },
  { rule: 'SQL literal quoting', home: ['main/common/sql-quote.ts'], tellTales: [doubling("'")] },
  // SQL identifiers and CSV fields are both quoted by doubling `"`: in these two modules only
  {
    rule: 'SQL identifier and CSV field quoting',
    home: ['main/common/sql-quote.ts', 'main/common/csv-text.ts'],
    tellTales: [doubling('"')],
  },
  {
    rule: "Dune's words for a double that is no number, and their reader",
    home: ['main/common/dune-types/float-values.ts'],
    tellTales: [/['"]-Infinity['"]/, /inf\|infinity/],
  },
  {
    rule: "bytes as Dune's 0x hex, and the integers a double holds, in SQL",
    home: ['main/common/dune-types/json-sql.ts'],
    tellTales: [/lower\(hex\(/, /BETWEEN -\$\{|BETWEEN -9007199254740991/],
  },
  {
    rule: 'the CSV record scanner',
    home: ['main/common/csv-text.ts'],
    tellTales: [/\[\^,\\r\\n\]\*/, /=== '"'\)\s*(\w+) = !\1/],
  },
];

describe('each shared rule is written once', () => {
  it('reads the sources', () => {
    expect(files.some((f) => f.path === 'renderer/src/App.svelte')).toBe(true);
    expect(files.some((f) => f.path === 'preload/index.ts')).toBe(true);
  });

  for (const { rule, home, tellTales } of RULES) {
    it(`${rule}: only in ${home.join(' and ')}`, () => {
      const at = (pattern: RegExp) =>
        files.filter((f) => pattern.test(f.text)).map((f) => relative(root, join(root, f.path)).split(sep).join('/'));
      for (const pattern of tellTales) {
        expect(
          at(pattern).filter((path) => !home.includes(path)),
          `${pattern} outside ${home.join(', ')}`,
        ).toEqual([]);
      }
      // and the tell-tales still find the rule where it is, so they would find a copy of it
      expect(tellTales.some((pattern) => at(pattern).some((path) => home.includes(path)))).toBe(true);
    });
  }
});
