import { UPLOAD_CHUNK_MAX_CHARS } from '$contract/table-rules.ts';
import type { Api } from '../lib/bridge.ts';
import { nameFromFile } from '../tables/upload.svelte.ts';

/**
 * Attaches a CSV file the user picked as a table of local SQL, named after the file as an upload
 * would be, in parts that fit the browser host's messages; answers what went wrong, or null.
 */
export async function attachCsvFile(api: Api, accountId: string, file: File): Promise<string | null> {
  const name = nameFromFile(file.name);
  if (name === '') return `“${file.name}” gives no table name: rename the file to start with a letter.`;
  const text = await file.text();
  for (let at = 0; at === 0 || at < text.length; at += UPLOAD_CHUNK_MAX_CHARS) {
    const part = text.slice(at, at + UPLOAD_CHUNK_MAX_CHARS);
    const answer = await api.invoke('localsql:attachCsv', { accountId, name, text: part, append: at > 0 });
    if (!answer.ok) return `“${file.name}” could not be attached: ${answer.error.message}`;
  }
  return null;
}
