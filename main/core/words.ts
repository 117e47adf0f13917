import { dirname } from 'node:path';

// Words from elsewhere (a library's error, the keychain's) set inside a sentence of ours.

/** `detail` without its closing period or space, to go before a period or parenthesis of ours. */
export function clause(detail: string): string {
  return detail.trim().replace(/[.\s]+$/, '');
}

/** The message of whatever was thrown. */
export function thrownText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const FILE_CODES: Record<string, (folder: string, path: string) => string> = {
  EACCES: (folder) => `Querydesk may not write in the folder ${folder}`,
  EPERM: (folder) => `Querydesk may not write in the folder ${folder}`,
  ENOSPC: (folder) => `The disk that holds ${folder} is full`,
  EDQUOT: (folder) => `The disk quota for ${folder} is used up`,
  ENOENT: (folder) => `The folder ${folder} does not exist`,
  EROFS: (folder) => `The folder ${folder} is on a disk that is read-only`,
  EISDIR: (_folder, path) => `The path ${path} is a folder`,
};

/** What was thrown, as a sentence: a file system error in words with its code kept, else its message. */
export function failureText(error: unknown): string {
  const { code, path } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; path?: unknown };
  const words = typeof code === 'string' ? FILE_CODES[code] : undefined;
  if (words !== undefined && typeof path === 'string') return `${words(dirname(path), path)} (${code}).`;
  const said = clause(thrownText(error));
  return said === '' ? 'No reason was given.' : `${said.charAt(0).toUpperCase()}${said.slice(1)}.`;
}
