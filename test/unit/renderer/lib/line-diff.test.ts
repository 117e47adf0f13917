import { describe, expect, it } from 'vitest';
import { countChanges, diffLines, type DiffLine } from '../../../../renderer/src/lib/line-diff.ts';

const short = (lines: DiffLine[]) => lines.map((line) => `${{ same: ' ', removed: '-', added: '+' }[line.change]}${line.text}`);

/** Both texts come back from the diff: the old one from its same and removed lines, the new one from its same and added. */
function sides(lines: DiffLine[]): [string, string] {
  return [
    lines
      .filter((l) => l.change !== 'added')
      .map((l) => l.text)
      .join('\n'),
    lines
      .filter((l) => l.change !== 'removed')
      .map((l) => l.text)
      .join('\n'),
  ];
}

describe('a line diff of two query texts', () => {
  it('marks nothing when the texts are equal', () => {
    expect(short(diffLines('SELECT 1\nFROM t', 'SELECT 1\nFROM t'))).toEqual([' SELECT 1', ' FROM t']);
  });

  it('marks a changed line as removed then added, keeping the lines around it', () => {
    const lines = diffLines('SELECT a\nFROM t\nWHERE x = 1\nLIMIT 10', 'SELECT a\nFROM t\nWHERE x = 2\nLIMIT 10');
    expect(short(lines)).toEqual([' SELECT a', ' FROM t', '-WHERE x = 1', '+WHERE x = 2', ' LIMIT 10']);
    expect(countChanges(lines)).toEqual({ removed: 1, added: 1 });
  });

  it('finds the lines both keep when lines were inserted and deleted in several places', () => {
    const before = 'a\nb\nc\nd\ne\nf';
    const after = 'a\nx\nc\nd\ny\nz\nf\ng';
    const lines = diffLines(before, after);
    expect(short(lines)).toEqual([' a', '-b', '+x', ' c', ' d', '-e', '+y', '+z', ' f', '+g']);
    expect(sides(lines)).toEqual([before, after]);
  });

  it('keeps a moved line on one side only, and repeated lines in order', () => {
    const lines = diffLines('x\ny\nx\ny', 'y\nx\ny\nx');
    expect(sides(lines)).toEqual(['x\ny\nx\ny', 'y\nx\ny\nx']);
    expect(lines.filter((l) => l.change === 'same')).toHaveLength(3);
  });

  it('treats an empty text as one empty line', () => {
    expect(short(diffLines('', 'SELECT 1'))).toEqual(['-', '+SELECT 1']);
    expect(short(diffLines('SELECT 1\n', 'SELECT 1'))).toEqual([' SELECT 1', '-']);
  });

  it('shows a very long changed middle as removed then added, without the table', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `a${i}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, i) => `b${i}`).join('\n');
    const lines = diffLines(`head\n${before}\ntail`, `head\n${after}\ntail`);
    expect(countChanges(lines)).toEqual({ removed: 3000, added: 3000 });
    expect(lines[0]).toEqual({ change: 'same', text: 'head' });
    expect(lines.at(-1)).toEqual({ change: 'same', text: 'tail' });
    expect(lines[1]).toEqual({ change: 'removed', text: 'a0' });
    expect(lines[3001]).toEqual({ change: 'added', text: 'b0' });
  });
});
