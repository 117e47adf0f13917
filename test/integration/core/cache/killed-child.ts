import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ResultShape } from '../../../../main/core/cache/download.ts';
import type { PageFormats } from '../../../../main/core/cache/page-fetch.ts';
import { until } from './cache-harness.ts';

// A download into the cache at `cacheDir` in a child process (see download-child.ts), killed with
// SIGKILL, so that nothing of it runs at exit, once `pages` of its pages are committed to the file
// (counting arrivals instead left nothing on disk when a busy machine's loads lagged behind).

const CHILD = fileURLToPath(new URL('./download-child.ts', import.meta.url));

/** Answers what the child printed and the most rows it said had arrived. */
export async function downloadKilledMidway(
  cacheDir: string,
  baseUrl: string,
  apiKey: string,
  shape: ResultShape,
  pages = 3,
  formats: PageFormats = 'csv',
): Promise<{ output: string; arrived: number }> {
  let output = '';
  const child = spawn(process.execPath, [CHILD, cacheDir, baseUrl, apiKey, JSON.stringify(shape), formats]);
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr.on('data', (data: Buffer) => (output += data.toString()));
  const arrivals = () => (output.match(/^rows \d+$/gm) ?? []).map((line) => Number(line.slice(5)));
  await until(() => (output.match(/^loaded$/gm) ?? []).length >= pages || child.exitCode !== null);
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  return { output, arrived: Math.max(0, ...arrivals()) };
}
