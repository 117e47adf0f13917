import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { headerRow, layoutCsv, readRange } from '../../../../main/core/tables/csv-layout.ts';

// Cutting a staged CSV into parts of whole records: a line break inside quotes is data.

const dir = mkdtempSync(join(tmpdir(), 'querydesk-csv-layout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
function file(text: string): string {
  const path = join(dir, `${(count += 1)}.csv`);
  writeFileSync(path, text);
  return path;
}

async function partsOf(text: string, partBytes: number): Promise<string[]> {
  const path = file(text);
  const layout = await layoutCsv(path, partBytes);
  return Promise.all(layout.parts.map(async (range) => (await readRange(path, range)).toString('utf8')));
}

describe('the layout of a CSV file', () => {
  it('finds the end of the header row, and its line break', async () => {
    expect(await layoutCsv(file('a,b\nx,y\n'), 100)).toMatchObject({ headerEnd: 4, lineBreak: '\n', size: 8 });
    expect(await layoutCsv(file('a,"b\nc"\r\nx,y\r\n'), 100)).toMatchObject({ headerEnd: 9, lineBreak: '\r\n' });
    expect(await layoutCsv(file('a,b'), 100)).toMatchObject({ headerEnd: 3, parts: [] });
  });

  it('cuts parts at record boundaries only, never inside quotes', async () => {
    const text = 'h\n"1\n1"\n"2 ""q"" \n2"\n3\n4\n';
    expect(await partsOf(text, 6)).toEqual(['"1\n1"\n', '"2 ""q"" \n2"\n', '3\n4\n']);
    expect((await partsOf(text, 1000)).join('')).toBe(text.slice(2));
  });

  it('keeps a last row without a line break, and leaves out blank lines at the end', async () => {
    expect(await partsOf('h\n1\n2', 2)).toEqual(['1\n', '2']);
    expect(await partsOf('h\n1\n\n\r\n', 2)).toEqual(['1\n']);
  });
});

describe('a header row of new names', () => {
  it('quotes only the names CSV needs quoted', () => {
    expect(headerRow(['day', 'a,b', 'say "hi"', ' pad'], '\r\n')).toBe('day,"a,b","say ""hi"""," pad"\r\n');
  });
});
