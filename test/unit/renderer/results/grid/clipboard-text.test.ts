import { describe, expect, it } from 'vitest';
import { formatBlock, type CopyColumn } from '../../../../../renderer/src/results/grid/clipboard-text.ts';

// Two rows as the grid holds them (values) and writes them (texts): a DECIMAL with its scale, an
// integer past 2^53 sent as text, a null, text with the characters each format must escape.
const columns: CopyColumn[] = [
  { name: 'fee', kind: 'decimal' },
  { name: 'big', kind: 'big-integer' },
  { name: 'note', kind: 'text' },
  { name: 'ok', kind: 'boolean' },
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
    expect(formatBlock('tsv', columns, values, texts)).toBe(
      'fee\tbig\tnote\tok\n0.10\t12345678901234567890\t"a, ""b"" | c"\ttrue\n2.00\t\t"it\'s\nhere"\tfalse',
    );
    expect(formatBlock('csv', columns, values, texts)).toBe(
      'fee,big,note,ok\n0.10,12345678901234567890,"a, ""b"" | c",true\n2.00,,"it\'s\nhere",false',
    );
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
    const plain = formatBlock('json', [{ name: 'n', kind: 'float' }], [[42], [1.5]], [['42'], ['1.5']]);
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

  // Dune's own kinds, one row as the grid writes them and one of values that do not read as their kind
  const dune: CopyColumn[] = [
    { name: 'wallet', kind: 'binary' },
    { name: 'amount', kind: 'big-integer' },
    { name: 'delta', kind: 'big-integer' },
    { name: 'price', kind: 'decimal' },
    { name: 'ratio', kind: 'float' },
    { name: 'day', kind: 'date' },
    { name: 'block_time', kind: 'timestamp' },
    { name: 'tags', kind: 'nested' },
    { name: 'meta', kind: 'json' },
  ];
  const WALLET = '0xd8da6bf26964af9d7eed9e03e53415d37aa96045';
  const PAST_128_BITS = '115792089237316195423570985008687907853269984665640564039457584007913129639935';
  const INT256_MIN = '-57896044618658097711785492504343953926634992332820282019728792003956564819968';
  const duneValues = [
    [
      WALLET,
      PAST_128_BITS,
      INT256_MIN,
      '1234567890.123456789012345678',
      Number.NaN,
      '2024-01-31',
      '2024-01-31 12:00:00.000 UTC',
      '["a","b"]',
      '{"n":123456789012345678901234567890}',
    ],
    ['0x', 'n/a', null, null, Number.POSITIVE_INFINITY, 'someday', 'later', '[1, 2', 'x'],
  ];
  const duneTexts = duneValues.map((row) => row.map((v) => (v === null ? null : String(v))));

  it('as SQL VALUES in DuneSQL: bytes bare, big integers whole, dates and timestamps typed, JSON quoted', () => {
    expect(formatBlock('sql', dune, duneValues, duneTexts).split('\n')).toEqual([
      'SELECT * FROM (VALUES',
      `  (${WALLET}, ${PAST_128_BITS}, ${INT256_MIN}, 1234567890.123456789012345678, nan(), DATE '2024-01-31', TIMESTAMP '2024-01-31 12:00:00.000 UTC', '["a","b"]', '{"n":123456789012345678901234567890}'),`,
      `  (X'', 'n/a', NULL, NULL, infinity(), 'someday', 'later', '[1, 2', 'x')`,
      ') AS t("wallet", "amount", "delta", "price", "ratio", "day", "block_time", "tags", "meta")',
    ]);
  });

  it('as SQL, a double that is no number in either spelling a service sent it', () => {
    const ratio: CopyColumn[] = [{ name: 'ratio', kind: 'float' }];
    const values = [['nan'], ['inf'], ['-inf'], ['-Infinity']];
    expect(formatBlock('sql', ratio, values, values).split('\n').slice(1, 5)).toEqual([
      '  (nan()),',
      '  (infinity()),',
      '  (-infinity()),',
      '  (-infinity())',
    ]);
  });

  it('as TSV and CSV with timestamps as spreadsheets read them, in UTC without the service’s zone', () => {
    expect(formatBlock('tsv', dune, duneValues, duneTexts).split('\n')[1]).toContain('\t2024-01-31\t2024-01-31 12:00:00.000\t');
    expect(formatBlock('csv', dune, duneValues, duneTexts).split('\n')[1]).toContain(',2024-01-31,2024-01-31 12:00:00.000,');
    expect(formatBlock('csv', dune, duneValues, duneTexts).split('\n')[2]).toContain(',someday,later,');
  });

  it('as JSON rows: nested values as JSON with every digit, no number lost to null', () => {
    const text = formatBlock('json', dune, duneValues, duneTexts);
    expect(text).toContain('"meta": {"n":123456789012345678901234567890}');
    expect(JSON.parse(text)).toEqual([
      {
        wallet: WALLET,
        amount: PAST_128_BITS,
        delta: INT256_MIN,
        price: '1234567890.123456789012345678',
        ratio: 'NaN',
        day: '2024-01-31',
        block_time: '2024-01-31 12:00:00.000 UTC',
        tags: ['a', 'b'],
        meta: { n: 1.2345678901234568e29 },
      },
      {
        wallet: '0x',
        amount: 'n/a',
        delta: null,
        price: null,
        ratio: 'Infinity',
        day: 'someday',
        block_time: 'later',
        tags: '[1, 2',
        meta: 'x',
      },
    ]);
    // laid out as JSON.stringify lays out rows, so what was pasted before reads the same
    const plain = [[1, 'a']];
    expect(
      formatBlock(
        'json',
        [
          { name: 'n', kind: 'integer' },
          { name: 's', kind: 'text' },
        ],
        plain,
        [['1', 'a']],
      ),
    ).toBe(JSON.stringify([{ n: 1, s: 'a' }], null, 2));
    expect(formatBlock('json', dune, [], [])).toBe('[]');
  });
});
