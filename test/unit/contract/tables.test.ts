import { describe, expect, it } from 'vitest';
import { SINGLE_UPLOAD_MAX_BYTES, uploadMode } from '../../../main/contract/table-rules.ts';
import { UploadBeginRequest } from '../../../main/contract/tables.ts';

// The upload's contract: the columns the service would refuse are refused before anything is staged,
// and one rule says whether a file goes in parts, for the form's warning and main's sending alike.

const begin = (names: string[]) => ({
  accountId: 'acc',
  tableName: 'prices',
  description: '',
  isPrivate: false,
  columns: names.map((name) => ({ name, type: 'varchar' })),
  rows: 1,
  replace: true,
  fileBytes: 10,
});

describe('an upload begun', () => {
  it('refuses a column name that repeats another but for case, and one that does not start with a letter, at its column', () => {
    const checked = UploadBeginRequest.safeParse(begin(['id', 'name', 'Name', '9x']));
    expect(checked.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['columns.2.name', 'Column 3 “Name” repeats the name of column 2 (names are compared without case).'],
      ['columns.3.name', 'Column 4 “9x” must start with a letter.'],
    ]);
    expect(UploadBeginRequest.safeParse(begin(['id', 'name', 'name_2'])).success).toBe(true);
  });

  it('goes in parts from the single request limit on', () => {
    expect(uploadMode(SINGLE_UPLOAD_MAX_BYTES - 1)).toBe('single');
    expect(uploadMode(SINGLE_UPLOAD_MAX_BYTES)).toBe('parts');
    expect(uploadMode(4095, 4096)).toBe('single');
    expect(uploadMode(4096, 4096)).toBe('parts');
  });
});
