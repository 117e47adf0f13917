// `npm run bench:uploads`: the embedded service's memory while four clients each upload 150 MB at
// once, as a free account (refused: over its 1 MB of storage) and as a premium one (stored).
// The service runs as a process of its own, so that its memory is measured alone (VmRSS, VmHWM).
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess } from './probes/service-process.ts';
import { recordPrinted } from './results-file.ts';

// Everything printed from here on is this run's section of bench/RESULTS.md, written once it ends well.
const recording = recordPrinted('bench:uploads');

const MB = 1024 * 1024;
const CLIENTS = 4;
const ROWS = Buffer.from('2024-01-01,0x5e8c1a2b3c4d5e6f,1234.5678\\n'.repeat(2048));
// about 150 MB, in whole rows
const UPLOAD_BYTES = Math.floor((150 * MB) / ROWS.length) * ROWS.length;

const folder = mkdtempSync(join(tmpdir(), 'querydesk-uploads-'));
const service = await startServiceProcess({
  folder,
  dataDir: join(folder, 'data'),
  accounts: [
    { handle: 'free', type: 'user', plan: 'free', api_keys: ['key-free'] },
    { handle: 'rich', type: 'user', plan: 'premium', api_keys: ['key-rich'] },
  ],
});
const { baseUrl } = service;
const memory = () => service.memory();

/** One upload of `UPLOAD_BYTES` of CSV in a JSON body, written as fast as the service reads it. */
function upload(key: string, table: string, declare: boolean): Promise<number> {
  const head = Buffer.from(`{"table_name":"${table}","data":"day,wallet,amount\\n`);
  const tail = Buffer.from('"}');
  return new Promise((resolve, reject) => {
    const { port } = new URL(baseUrl);
    const headers: Record<string, string> = { 'x-dune-api-key': key };
    if (declare) headers['content-length'] = String(head.length + UPLOAD_BYTES + tail.length);
    const req = request({ host: '127.0.0.1', port, path: '/api/v1/table/upload/csv', method: 'POST', headers, agent: false });
    let answered = false;
    let sent = 0;
    req.on('response', (response) => {
      answered = true;
      const body: Buffer[] = [];
      response.on('data', (chunk: Buffer) => body.push(chunk));
      response.on('end', () => {
        req.destroy();
        if (response.statusCode !== 200 && response.statusCode !== 402) console.log(Buffer.concat(body).toString());
        resolve(response.statusCode ?? 0);
      });
    });
    req.on('error', (error) => (answered ? undefined : reject(error)));
    req.write(head);
    const pump = () => {
      while (!answered && sent < UPLOAD_BYTES) {
        const chunk = ROWS.subarray(0, Math.min(ROWS.length, UPLOAD_BYTES - sent));
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end(tail);
    };
    pump();
  });
}

async function flood(label: string, key: string, declare: boolean) {
  const before = memory().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, memory().rss)), 50);
  const start = performance.now();
  const statuses = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => upload(key, `flood_${i}`, declare)));
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = memory().rss;
  const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
  console.log(
    `${label.padEnd(42)} ${statuses.join(',')}  ${seconds.toFixed(1)} s  ` +
      `RSS ${mb(before)} -> peak ${mb(peak)} (+${mb(peak - before)}) -> ${mb(after)} after`,
  );
}

try {
  console.log(
    `${CLIENTS} clients at once, ${(UPLOAD_BYTES / MB).toFixed(0)} MB of CSV each (${((CLIENTS * UPLOAD_BYTES) / MB).toFixed(0)} MB in all)`,
  );
  console.log(`service idle: RSS ${(memory().rss / MB).toFixed(0)} MB`);
  await flood('free plan, size declared (refused at once)', 'key-free', true);
  await flood('free plan, size not declared (refused at 1 MB)', 'key-free', false);
  await flood('premium plan, size declared (stored)', 'key-rich', true);
  console.log(`service peak over the whole run (VmHWM): ${(memory().peak / MB).toFixed(0)} MB`);
  recording.save();
} finally {
  await service.kill();
  rmSync(folder, { recursive: true, force: true });
}
