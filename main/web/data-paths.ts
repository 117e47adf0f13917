import { homedir } from 'node:os';
import { join } from 'node:path';

// Where the browser host keeps its data: known before the host's modules are loaded, as the log is
// opened first (it masks what the embedded service prints).

export function defaultDataDir(): string {
  const dataHome = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, 'querydesk');
}

export const logsDirOf = (dataDir: string): string => join(dataDir, 'logs');
