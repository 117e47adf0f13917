import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Benchmark figures in comments go stale as the code moves on: they belong in bench/RESULTS.md,
// and a comment says why without them. Settings, limits and examples stay ("2 GB by default",
// "up to 30 s"): what marks a measurement is its form, a range ("0.59-0.63 s"), a ratio ("0.91x"),
// a comparison ("against 48 ms", "from 34 MB to 134 MB") or a cost ("took 1.3 s", "about 2 ms").

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const UNIT = String.raw`(?:ms|s|MB|GB|KB|MiB|GiB|%|x|rows/s|M rows/s)`;
const NUMBER = String.raw`\d+(?:[.,]\d+)*`;
const MEASUREMENTS = [
  new RegExp(String.raw`(?<![\w^])${NUMBER}-${NUMBER}\s?${UNIT}(?![\w])`),
  new RegExp(String.raw`(?<![\w])\d+\.\d+x(?![\w])`),
  new RegExp(String.raw`\bagainst (?:about )?${NUMBER}\s?${UNIT}?`),
  new RegExp(String.raw`\b(?:took|takes|take|cost|costs|about|past)\s${NUMBER}\s?${UNIT}(?![\w])`),
  new RegExp(String.raw`\bfrom ${NUMBER}\s?(?:M|${UNIT})? to ${NUMBER}\s?${UNIT}`),
  new RegExp(String.raw`\b${NUMBER}\s?(?:M\s)?rows/s\b`),
  new RegExp(String.raw`\b${NUMBER}\s?%\s(?:more|less|smaller|larger|faster|slower|off)\b`),
];
const COMMENT = /^\s*(?:\/\/|\/\*|\*)|\s\/\/\s|<!--/;

/** Each comment line of `text` that carries a measured figure, as `line: text`. */
export function commentFigures(text: string): string[] {
  return text.split('\n').flatMap((line, index) => {
    const start = line.search(COMMENT);
    if (start < 0) return [];
    const comment = line.slice(start);
    return MEASUREMENTS.some((pattern) => pattern.test(comment)) ? [`${index + 1}: ${comment.trim()}`] : [];
  });
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|svelte)$/.test(entry.name) ? [path] : [];
  });
}

describe('benchmark figures in comments', () => {
  it('finds the forms a measurement takes, and not settings, limits or examples', () => {
    const flagged = [
      '// million-row demo result from a service beside the app: 0.59-0.63 s with 150,000 rows to a',
      "  // against 20.4-20.8 ms, a text column's profile in 36 ms against 48 ms; the file is 32.5 MB",
      '// million-row demo result at 0.62x-0.75x of DuckDB writing the same text, against 0.52x-0.65x',
      "// read went from 0.78M to 0.97M rows/s and making a filtered view from 170 to 122 ms; the service's",
      "// from 34 MB to 134 MB in the host's thread, most of its memory peak in bench:service (+166 to +310",
      ' * configuration locked, so the SQL can attach nothing more. Attaching takes about 2 ms a table, so',
      '  // read once: listing the tables attached every file again, past 500 ms with 60 tables.',
      ' * page is read whole, and they cost 5-8% of the CPU (247-253 ms against 259-284 ms) and 1% of the bytes.',
      '    // second DuckDB thread made those loads take 30-50% more CPU for the same rows (0.8-1.1 s',
      'const LIMIT = 3; // the service paged at 1.05x its reference',
    ];
    const kept = [
      "/** The cache's budget (a setting, 2 GB by default) and what it holds. */",
      "// A timer of Node's fires at once past 2^31 - 1 ms (24.8 days).",
      "/** 2 s, 4 s, 8 s ... up to a minute, each within ±20 % so many windows don't retry in step. */",
      '/** "850 ms", "3.4 s", "2 min 05 s", "1 h 02 min". */',
      " * A page's body goes to disk this much at a time: it comes in 16 KB pieces, and a write for each",
      '/** `256MB` for every plan, or `free=256MB,plus=512MB` for some of them. */',
      'const header = `took 1.3 s`; // a string, not a comment',
      'const BYTES = /^0x([0-9a-f]{2})*$/;',
    ];
    expect(commentFigures(flagged.join('\n'))).toHaveLength(flagged.length);
    expect(commentFigures(kept.join('\n'))).toEqual([]);
  });

  it('finds none in the sources of main, preload and renderer', () => {
    const found = ['main', 'preload', 'renderer/src'].flatMap((folder) =>
      sourceFiles(join(root, folder)).flatMap((file) =>
        commentFigures(readFileSync(file, 'utf8')).map((line) => `${relative(root, file)}:${line}`),
      ),
    );
    expect(found, 'move each figure to bench/RESULTS.md ("Measured while building") and keep the why').toEqual([]);
  });
});
