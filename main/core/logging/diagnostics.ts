import { arch, release, type } from 'node:os';
import type { AboutInfo, Account, AppSettings } from '../../contract/index.ts';

// "Copy diagnostics": what a bug report needs and nothing secret. Keys never reach here; the whole
// text still goes through the log's redaction (a proxy address may carry a password).

export function diagnosticsReport(input: { about: AboutInfo; settings: AppSettings; accounts: Account[]; recent: string[] }): string {
  const { about, settings, accounts, recent } = input;
  const versions = process.versions as NodeJS.ProcessVersions & { electron?: string; chrome?: string };
  const remote = accounts.filter((account) => !account.isLocal);
  return [
    `Querydesk ${about.version} (${about.host === 'electron' ? 'desktop app' : 'browser host'})`,
    `Runtime: Node ${versions.node}${versions.electron ? `, Electron ${versions.electron}, Chromium ${versions.chrome}` : ''}`,
    `System: ${type()} ${release()} ${arch()}`,
    `Data folder: ${about.dataDir}`,
    `Accounts: Local and ${remote.length} more (${remote.map((account) => `${account.kind} on ${hostOf(account.baseUrl)}, key ${account.keyStorage}`).join('; ') || 'none'})`,
    `Settings: ${JSON.stringify(settings)}`,
    '',
    recent.length === 0 ? 'Recent errors: none' : `Recent errors (${recent.length}):`,
    ...recent,
  ].join('\n');
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return 'an unreadable address';
  }
}
