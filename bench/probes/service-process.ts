import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostProcessEnv } from '../../build/web-host.ts';

// The embedded service as a process of its own, for probes that measure its memory alone, or
// kill it: `npm run service` on a data folder, with the accounts given.

export interface ServiceAccount {
  handle: string;
  type: 'user' | 'team';
  plan: 'free' | 'plus' | 'premium';
  api_keys: string[];
  members?: string[];
}

export interface ServiceProcess {
  baseUrl: string;
  /** Resident memory now and at its peak (VmRSS, VmHWM), in bytes. */
  memory(): { rss: number; peak: number };
  /** The last lines the service wrote to stderr (where it logs an internal error's cause). */
  errors(): string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): Promise<number | string>;
}

/** Starts the service on `dataDir` (the accounts file is written beside the data, in `folder`). */
export async function startServiceProcess(options: {
  folder: string;
  dataDir: string;
  accounts: ServiceAccount[];
  extraArgs?: string[];
}): Promise<ServiceProcess> {
  const accountsFile = join(options.folder, 'accounts.json');
  writeFileSync(accountsFile, JSON.stringify({ accounts: options.accounts }));
  const args = [
    'main/service/cli.ts',
    '--port',
    '0',
    '--data-dir',
    options.dataDir,
    '--accounts',
    accountsFile,
    ...(options.extraArgs ?? []),
  ];
  // started as `npm run service` starts it
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: hostProcessEnv() });
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`the service exited (${code}) before listening: ${errors}`)));
  });
  return {
    baseUrl,
    memory() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
      return { rss: field('VmRSS'), peak: field('VmHWM') };
    },
    errors: () => errors,
    exited,
    kill(signal = 'SIGTERM') {
      child.kill(signal);
      return exited;
    },
  };
}
