import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { WebSocket } from 'ws';
import { webHostCommand } from '../build/web-host.ts';
import { WS_PATH } from '../main/contract/index.ts';

// The browser host as bench:footprint meets it: started as a person starts it, ready once its URL
// answers the first screen (the page and the workspace as kept on disk), measured by the resident
// memory of its one process (the embedded service is a thread of it).

export interface RunningHost {
  child: ChildProcess;
  url: string;
  /** From the spawn to the first screen answered. */
  startMs: number;
  stop(): Promise<void>;
}

/** A figure of a process's /proc status in bytes: VmRSS (all resident memory), RssAnon, RssFile. */
function statusBytes(pid: number, field: string): number {
  const kilobytes = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kilobytes === undefined) throw new Error(`no ${field} for process ${pid}`);
  return Number(kilobytes) * 1024;
}

/** The resident memory of a process in bytes, from Linux's /proc. */
export const rssOf = (pid: number): number => statusBytes(pid, 'VmRSS');

/**
 * Its two kinds: memory of its own (the V8 heaps, DuckDB's buffers) and pages of files it maps
 * (Node's and DuckDB's libraries), which other processes mapping the same files share.
 */
export const rssKindsOf = (pid: number): { anonymous: number; files: number } => ({
  anonymous: statusBytes(pid, 'RssAnon'),
  files: statusBytes(pid, 'RssFile'),
});

/** Samples a process's resident memory every `everyMs` until stopped; answers the largest seen. */
export function sampleRss(pid: number, everyMs: number): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // the process ended: the peak so far is what there is
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

export async function startHost(dataDir: string): Promise<RunningHost> {
  const started = performance.now();
  const command = webHostCommand(['--port', '0', '--data-dir', dataDir, '--no-build']);
  const child = spawn(process.execPath, command.args, { stdio: ['ignore', 'pipe', 'inherit'], env: command.env });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the browser host exited (code ${code}) before it printed its URL`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /running at (http\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
  });
  await firstScreen(url);
  return {
    child,
    url,
    startMs: performance.now() - started,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

interface ResultMessage {
  type: string;
  id?: number;
  result?: { ok?: boolean };
}

/** What the app's first screen asks for: the page, then the Local workspace over the contract's socket. */
async function firstScreen(url: string): Promise<void> {
  const page = await fetch(url);
  if (!page.ok || !(await page.text()).includes('<html')) throw new Error(`the host's page answered ${page.status}`);
  const { origin, hash } = new URL(url);
  const token = new URLSearchParams(hash.slice(1)).get('token') ?? '';
  const socket = new WebSocket(`${origin.replace('http', 'ws')}${WS_PATH}?token=${encodeURIComponent(token)}`, { origin });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    // events may come first; the answer is the result of this invoke
    const answer = new Promise<ResultMessage>((resolve) =>
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as ResultMessage;
        if (message.type === 'result' && message.id === 1) resolve(message);
      }),
    );
    socket.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'workspace:open', payload: { accountId: 'local' } }));
    const message = await answer;
    if (message.result?.ok !== true) throw new Error(`the workspace did not open: ${JSON.stringify(message).slice(0, 300)}`);
  } finally {
    socket.close();
  }
}
