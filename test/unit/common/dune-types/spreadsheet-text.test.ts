import { describe, expect, it } from 'vitest';
import { decimalText, parseType, spreadsheetRewrite, spreadsheetTimestamp } from '../../../../main/common/dune-types/index.ts';
import { headerNames, spreadsheetPages } from '../../../../main/core/export/csv-pages.ts';
import { cellFormat } from '../../../../renderer/src/results/grid/cell-format.ts';

const rewrite = (type: string, text: string) => (spreadsheetRewrite(parseType(type)) ?? ((t: string) => t))(text);

describe("a value's text for a spreadsheet", () => {
  it('keeps a decimal’s scale and every digit, whatever text the service gave', () => {
    expect(rewrite('decimal(10,2)', '98.8')).toBe('98.80');
    expect(rewrite('decimal(18,6)', '8e-05')).toBe('0.000080');
    expect(rewrite('decimal(18,6)', '-0.5')).toBe('-0.500000');
    expect(rewrite('decimal(18,6)', '3')).toBe('3.000000');
    expect(rewrite('decimal(38,18)', '98.8')).toBe('98.800000000000000000');
    expect(rewrite('decimal(38,18)', '3.123456789012345678')).toBe('3.123456789012345678');
    expect(rewrite('decimal(38,0)', '1e+21')).toBe('1000000000000000000000');
    expect(decimalText('NaN', 2)).toBe('NaN');
  });

  it('is what the grid shows for numbers and bytes, without grouping', () => {
    const cases: [string, string][] = [
      ['decimal(10,2)', '98.8'],
      ['decimal(38,18)', '1.5'],
      ['uint256', '115792089237316195423570985008687907853269984665640564039457584007913129639935'],
      ['varbinary', '0xDEAD'],
      ['bigint', '-42'],
    ];
    for (const [type, text] of cases) expect(rewrite(type, text), type).toBe(cellFormat(type, { grouping: false })(text));
  });

  it('writes timestamps as ISO 8601 date and time in UTC, without a zone; other text as it is', () => {
    expect(spreadsheetTimestamp('2024-01-01 00:00:00.000 UTC')).toBe('2024-01-01 00:00:00.000');
    expect(spreadsheetTimestamp('2024-01-01T13:05:07.120Z')).toBe('2024-01-01 13:05:07.120');
    expect(rewrite('timestamp(3) with time zone', '2024-01-01 13:05:07.120 UTC')).toBe('2024-01-01 13:05:07.120');
    expect(spreadsheetTimestamp('infinity')).toBe('infinity');
    expect(spreadsheetRewrite(parseType('varchar'))).toBeNull();
    expect(spreadsheetRewrite(parseType('double'))?.('8e-05')).toBe('0.00008');
  });
});

describe("the service's CSV pages rewritten", () => {
  const columns = { names: ['id', 'note', 'price', 'at'], types: ['bigint', 'varchar', 'decimal(10,2)', 'timestamp(3)'] };

  it('rewrites only the typed fields, passing quoted text, empty text and nulls on as they are', () => {
    const rows = spreadsheetPages('id,note,price,at', columns)!;
    const page = [
      '1,"a, ""b""",98.8,2024-01-01 00:00:00.000 UTC\n',
      '2,"two\nlines",,\n',
      '3,"","7",2024-01-02 03:04:05.006 UTC\r\n',
      '4,plain,-0.5,2024-01-03 00:00:00.000 UTC\r\n',
      '5,,1e-2,\n',
    ];
    expect(rows(page.join(''))).toBe(
      [
        '1,"a, ""b""",98.80,2024-01-01 00:00:00.000\n',
        '2,"two\nlines",,\n',
        '3,"",7.00,2024-01-02 03:04:05.006\r\n',
        '4,plain,-0.50,2024-01-03 00:00:00.000\r\n',
        '5,,0.01,\n',
      ].join(''),
    );
    // records with no quote at all
    expect(rows(page.slice(3).join(''))).toBe('4,plain,-0.50,2024-01-03 00:00:00.000\r\n5,,0.01,\n');
  });

  it('finds each header column’s type by its name, and leaves a page alone when nothing changes', () => {
    expect(headerNames('"a,b",c,')).toEqual(['a,b', 'c', '']);
    const reordered = spreadsheetPages('at,id', columns)!;
    expect(reordered('2024-01-01 00:00:00.000 UTC,7\n')).toBe('2024-01-01 00:00:00.000,7\n');
    expect(spreadsheetPages('id,note', columns)).toBeNull();
    expect(spreadsheetPages('id,price', null)).toBeNull();
  });
});
