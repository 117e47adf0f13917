import { describe, expect, it } from 'vitest';
import { formatBlock } from '../../../renderer/src/results/grid/copy-formats.ts';

// Two rows as the grid holds them (values) and writes them (texts): a DECIMAL with its scale, an
// integer past 2^53 sent as text, a null, text with the characters each format must escape.
const columns = [
  { name: 'fee', numeric: true },
  { name: 'big', numeric: true },
  { name: 'note', numeric: false },
  { name: 'ok', numeric: false },
];
const values = [
  [0.1, '12345678901234567890', 'a, "b" | c', true],
  [2, null, "it's\nhere", false],
];
const texts = [
  ['0.10', '12345678901234567890', 'a, "b" | c', 'true'],
  ['2.00', null, "it's\nhere", 'false'],
];

describe('a block of cells written out', () => {
  it('as TSV and CSV, quoting what needs it', () => {
    expect(formatBlock('tsv', columns, values, texts)).toBe('fee\tbig\tnote\tok\n0.10\t12345678901234567890\t"a, ""b"" | c"\ttrue\n2.00\t\t"it\'s\nhere"\tfalse');
    expect(formatBlock('csv', columns, values, texts)).toBe('fee,big,note,ok\n0.10,12345678901234567890,"a, ""b"" | c",true\n2.00,,"it\'s\nhere",false');
  });

  it('as a Markdown table, numbers aligned right and pipes escaped', () => {
    expect(formatBlock('markdown', columns, values, texts).split('\n')).toEqual([
      '| fee | big | note | ok |',
      '| ---: | ---: | --- | --- |',
      '| 0.10 | 12345678901234567890 | a, "b" \\| c | true |',
      "| 2.00 |  | it's<br>here | false |",
    ]);
  });

  it('as JSON rows, keeping digits a number would lose as text', () => {
    expect(JSON.parse(formatBlock('json', columns, values, texts))).toEqual([
      { fee: '0.10', big: '12345678901234567890', note: 'a, "b" | c', ok: true },
      { fee: '2.00', big: null, note: "it's\nhere", ok: false },
    ]);
    const plain = formatBlock('json', [{ name: 'n', numeric: true }], [[42], [1.5]], [['42'], ['1.5']]);
    expect(JSON.parse(plain)).toEqual([{ n: 42 }, { n: 1.5 }]);
  });

  it('as SQL VALUES: numbers bare, text quoted, NULL and booleans as SQL has them', () => {
    expect(formatBlock('sql', columns, values, texts)).toBe(
      [
        'SELECT * FROM (VALUES',
        `  (0.10, 12345678901234567890, 'a, "b" | c', TRUE),`,
        `  (2.00, NULL, 'it''s\nhere', FALSE)`,
        ') AS t("fee", "big", "note", "ok")',
      ].join('\n'),
    );
  });
});
