import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVICE_CACHES } from '../../../../main/common/memory-budgets.ts';
import { TableFiles } from '../../../../main/service/tables/table-files.ts';

// Tables' files retired by a change: a list read before the change is refused, a held file is
// deleted with its last holder, and the names remembered for that stay bounded however many
// changes the service sees.

const dir = mkdtempSync(join(tmpdir(), 'querydesk-table-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function written(files: TableFiles): string {
  const name = files.newName();
  writeFileSync(files.path(name), 'data');
  return name;
}

describe('retired table files', () => {
  it('are refused to a list read before, and a held one goes with its last holder, after many more changes', () => {
    const files = new TableFiles(join(dir, 'tables'));
    const held = written(files);
    expect(files.acquire([held])).toBe(true);
    files.retire(held);
    expect(files.acquire([held])).toBe(false);
    // more changes than the names remembered of deleted files
    let last = '';
    for (let i = 0; i < SERVICE_CACHES.retiredTableFiles + 100; i++) {
      last = written(files);
      files.retire(last);
      expect(existsSync(files.path(last))).toBe(false);
    }
    expect(files.acquire([last])).toBe(false);
    expect(files.acquire([held])).toBe(false);
    expect(files.retiredNames).toBe(SERVICE_CACHES.retiredTableFiles + 1);
    expect(existsSync(files.path(held))).toBe(true);
    files.release([held]);
    expect(existsSync(files.path(held))).toBe(false);
    expect(files.acquire([held])).toBe(false);
  });
});
