import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

// Each account's local workspace lives in a folder of its own under core's data folder, named by a
// hash of the account id (ids are free text; a folder name must not be).

export function accountDir(workspacesDir: string, accountId: string): string {
  const name = createHash('sha256').update(accountId).digest('hex').slice(0, 32);
  return join(workspacesDir, name);
}

export async function removeAccountDir(workspacesDir: string, accountId: string): Promise<void> {
  await rm(accountDir(workspacesDir, accountId), { recursive: true, force: true });
}
