import { describe, expect, it } from 'vitest';
import { checkColumns, checkFile, checkRows, checkTableName, suggestColumnNames } from '../../../../renderer/src/tables/validate.ts';
import { proofread } from '../../words/proofread.ts';

// Each refusal of the service, found before sending, with the words the upload form shows.

const MB = 1024 * 1024;

describe('the file', () => {
  it('refuses an empty file', () => {
    expect(checkFile(0, 0).problem?.message).toBe('The file is empty: it needs a header row with the column names.');
  });

  it('says that a file of 200 MB or more cannot go in one request, and goes in parts', () => {
    expect(checkFile(200 * MB - 1, 3)).toEqual({ problem: null, note: null });
    expect(checkFile(200 * MB, 3)).toEqual({
      problem: null,
      note:
        'The file is 200.0 MB; one upload request must be smaller than 200.0 MB, so it will be sent in parts: ' +
        'a table is created from the column types shown, then the rows are inserted.',
    });
  });
});

describe('the table name', () => {
  it('takes a lowercase letter followed by a-z, 0-9 and _', () => {
    expect(checkTableName('prices_2024')).toBeNull();
  });

  it('asks for a name', () => {
    expect(checkTableName('')).toEqual({ about: 'tableName', message: 'Give the table a name.' });
  });

  it('refuses capitals, signs and a leading digit, with a name that would do', () => {
    expect(checkTableName('Daily Prices')?.message).toBe(
      '“Daily Prices” cannot be a table name: it must start with a lowercase letter and hold only a–z, 0–9 and _. For example: “daily_prices”.',
    );
    expect(checkTableName('2024-prices')?.message).toBe(
      '“2024-prices” cannot be a table name: it must start with a lowercase letter and hold only a–z, 0–9 and _. For example: “prices”.',
    );
    expect(checkTableName('---')?.message).toBe(
      '“---” cannot be a table name: it must start with a lowercase letter and hold only a–z, 0–9 and _.',
    );
  });
});

describe('the column names', () => {
  it('takes names that start with a letter, in any script', () => {
    expect(checkColumns(['day', 'Price', 'ünits', 'a1'])).toEqual([]);
  });

  it('refuses a name that starts with a digit, offering it prefixed', () => {
    expect(checkColumns(['day', '1st_price'])).toEqual([
      {
        about: 'column',
        column: 1,
        fix: 'col_1st_price',
        message: 'Column 2 “1st_price” starts with a digit; a column name must start with a letter. Use “col_1st_price”?',
      },
    ]);
  });

  it('refuses a name that starts with a special character, offering it stripped', () => {
    expect(checkColumns(['#tag', 'day'])).toEqual([
      {
        about: 'column',
        column: 0,
        fix: 'tag',
        message: 'Column 1 “#tag” starts with “#”; a column name must start with a letter. Use “tag”?',
      },
    ]);
    expect(checkColumns([' day'])[0]?.message).toBe('Column 1 “ day” starts with “ ”; a column name must start with a letter. Use “day”?');
  });

  it('refuses a name that differs from an earlier one only in case, as the service does, offering it numbered', () => {
    expect(checkColumns(['name', 'Name'])).toEqual([
      {
        about: 'column',
        column: 1,
        fix: 'Name_2',
        message: 'Column 2 “Name” differs from column 1 “name” only in case, which the service does not tell apart. Use “Name_2”?',
      },
    ]);
    expect(suggestColumnNames(['id', 'ID', 'Id_2'])).toEqual(['id', 'ID_3', 'Id_2']);
  });

  it('refuses an empty name, offering a numbered one', () => {
    expect(checkColumns(['a', ''])).toEqual([
      { about: 'column', column: 1, fix: 'column_2', message: 'Column 2 has no name. Use “column_2”?' },
    ]);
  });

  it('refuses a repeated name, pointing at the first one', () => {
    expect(checkColumns(['price', 'day', 'price'])).toEqual([
      { about: 'column', column: 2, fix: 'price_2', message: 'Column 3 “price” has the same name as column 1. Use “price_2”?' },
    ]);
  });

  it('offers fixed names that are all different and all accepted', () => {
    const names = ['tag', '#tag', '', '9', 'col_9', 'x', 'x'];
    const fixed = suggestColumnNames(names);
    expect(fixed).toEqual(['tag', 'tag_2', 'column_3', 'col_9_2', 'col_9', 'x', 'x_2']);
    expect(checkColumns(fixed)).toEqual([]);
  });

  it('makes the spaces and signs inside a fixed name underscores', () => {
    expect(suggestColumnNames(['1st col', '#net (usd)', 'price usd'])).toEqual(['col_1st_col', 'net_usd_', 'price usd']);
  });
});

describe('the rows', () => {
  it('points at rows with another number of fields than the header, and counts the rest', () => {
    expect(checkRows([], 0, 3)).toEqual([]);
    expect(
      checkRows(
        [
          { row: 5, fields: 2 },
          { row: 9, fields: 1 },
          { row: 12, fields: 4 },
        ],
        7,
        3,
      ).map((p) => p.message),
    ).toEqual([
      'Row 5 has 2 fields; the header has 3.',
      'Row 9 has 1 field; the header has 3.',
      'Row 12 has 4 fields; the header has 3.',
      '4 more rows have a different number of fields than the header.',
    ]);
    expect(checkRows([{ row: 2, fields: 2 }], 1, 3)).toEqual([{ about: 'rows', message: 'Row 2 has 2 fields; the header has 3.' }]);
  });
});

describe('the words of every check', () => {
  it('read as whole sentences, each said once', () => {
    const messages = [
      checkFile(0, 0).problem?.message,
      checkFile(500 * MB, 3).problem?.message,
      checkFile(10, 3).note,
      checkTableName('')?.message,
      checkTableName('Daily Prices')?.message,
      checkTableName('---')?.message,
      ...checkColumns(['a', '', '1st', '#tag', 'a']).map((p) => p.message),
      ...checkRows([{ row: 2, fields: 1 }], 6, 3).map((p) => p.message),
    ].filter((m): m is string => typeof m === 'string');
    expect(messages.length).toBeGreaterThan(8);
    for (const message of messages) expect(proofread(message), message).toEqual([]);
  });
});
