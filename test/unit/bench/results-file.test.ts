import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { benchSection, recordPrinted, replaceSection, writeBenchSection } from '../../../bench/results-file.ts';

const SEED = [
  '# Benchmark figures',
  '',
  'Written by the benchmarks.',
  '',
  '## Figures recorded in the README until 2026-11-26',
  '',
  '| measure | figure |',
  '',
  '## Measured while building',
  '',
  '- main/core/cache/page-loader.ts: 0.59-0.63 s',
  '',
].join('\n');

const WHEN = new Date('2026-11-27T03:40:12Z');
const MACHINE = '2 cores (test CPU), 24 GB, Linux 6.1, Node v24.0.0, commit abc1234';

describe('bench/RESULTS.md sections', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bench-results-'));
    file = join(dir, 'RESULTS.md');
    writeFileSync(file, SEED);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('adds a bench section before the figures kept from before, with when and where it ran', () => {
    writeBenchSection('bench:link', ['Download 0.63 s', '  official client 6.46 s'], { file, when: WHEN, machine: MACHINE });
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(
      [
        '# Benchmark figures',
        '',
        'Written by the benchmarks.',
        '',
        '## npm run bench:link',
        '',
        `Run on 2026-11-27 at 03:40 UTC, on ${MACHINE}.`,
        '',
        '```',
        'Download 0.63 s',
        '  official client 6.46 s',
        '```',
        '',
        SEED.slice(SEED.indexOf('## Figures recorded')),
      ].join('\n'),
    );
  });

  it("replaces only its own bench's section, whole, and leaves the others and the kept figures alone", () => {
    writeBenchSection('bench', ['first run'], { file, when: WHEN, machine: MACHINE });
    writeBenchSection('bench:link', ['link first'], { file, when: WHEN, machine: MACHINE });
    const later = new Date('2026-11-28T10:05:00Z');
    writeBenchSection('bench', ['second run', 'two lines'], { file, when: later, machine: MACHINE });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('first run');
    expect(text).toContain(benchSection('bench', ['second run', 'two lines'], later, MACHINE));
    expect(text).toContain(benchSection('bench:link', ['link first'], WHEN, MACHINE));
    expect(text.indexOf('## npm run bench\n')).toBeLessThan(text.indexOf('## npm run bench:link'));
    expect(text.endsWith(SEED.slice(SEED.indexOf('## Figures recorded')))).toBe(true);
    expect(text.match(/## npm run bench\n/g)).toHaveLength(1);
  });

  it('is not fooled by a printed line that looks like a heading', () => {
    const printed = ['## npm run bench:link', '## Measured while building'];
    let text = replaceSection(SEED, 'bench:service', benchSection('bench:service', printed, WHEN, MACHINE));
    text = replaceSection(text, 'bench:service', benchSection('bench:service', ['again'], WHEN, MACHINE));
    expect(text).not.toContain('## npm run bench:link');
    expect(text.match(/## Measured while building/g)).toHaveLength(1);
    expect(text).toContain('```\nagain\n```');
  });

  it('replaces a section that ends the file, and starts a file that has no sections', () => {
    const alone = replaceSection('# Benchmark figures\n', 'bench:dune', benchSection('bench:dune', ['one'], WHEN, MACHINE));
    expect(alone).toBe(`# Benchmark figures\n\n${benchSection('bench:dune', ['one'], WHEN, MACHINE)}`);
    const again = replaceSection(alone, 'bench:dune', benchSection('bench:dune', ['two'], WHEN, MACHINE));
    expect(again).toBe(`# Benchmark figures\n\n${benchSection('bench:dune', ['two'], WHEN, MACHINE)}`);
  });

  it('records what a bench prints with console.log, still printing it', () => {
    const shown: unknown[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => void shown.push(args);
    try {
      const recording = recordPrinted('bench:uploads', { file, when: WHEN, machine: MACHINE });
      console.log('service idle: RSS %d MB', 161);
      console.log('a\nb', '');
      recording.save();
    } finally {
      console.log = original;
    }
    expect(shown.slice(0, 2)).toEqual([
      ['service idle: RSS %d MB', 161],
      ['a\nb', ''],
    ]);
    expect(readFileSync(file, 'utf8')).toContain('```\nservice idle: RSS 161 MB\na\nb \n```');
  });
});
