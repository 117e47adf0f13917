import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The embedded service in a child process of a benchmark, as a remote service would be: the
// benchmark's client and the service do not share one event loop.

export interface ServiceChild {
  baseUrl: string;
  port: number;
  /** The demo account's key. */
  key: string;
  /** The process's resident size now, in bytes (Linux). */
  residentBytes(): number;
  /** The CPU time the process has taken so far, user and system, in milliseconds (Linux). */
  cpuMillis(): number;
  stop(): Promise<void>;
}

export async function startServiceChild(dir: string, extraArgs: string[] = []): Promise<ServiceChild> {
  const args = ['main/service/cli.ts', '--port', '0', '--data-dir', join(dir, 'service'), ...extraArgs];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  // read to the end (what comes after the address is dropped), so that the pipe never fills
  const { baseUrl, key } = await new Promise<{ baseUrl: string; key: string }>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += String(chunk);
      const match = /listening on (\S+) .*demo API key: (\S+?)\)/.exec(output);
      if (match) resolve({ baseUrl: match[1]!, key: match[2]! });
    });
    child.once('exit', (code) => reject(new Error(`the service exited (${code}) before it listened: ${output}`)));
  });
  return {
    baseUrl,
    port: Number(new URL(baseUrl).port),
    key,
    residentBytes: () => Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024,
    cpuMillis: () => {
      // utime and stime, the 14th and 15th fields, in clock ticks (100 a second); the name before them may hold spaces
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
