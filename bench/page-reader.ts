import { spawn } from 'node:child_process';
import { Agent, get, type IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';

// The client that pages through a result for `bench:service`, in a process of its own, as a
// remote client would be, reading each body as it streams in and keeping only what it needs of it.
// In the benchmark's process, holding the bodies to count their rows later, it took 385-529 ms of
// CPU for the first JSON read (161 MB), against 225-361 ms in a process of its own: V8 ran a full
// collection every 10-30 ms of the read, about forty, each marking the benchmark's whole heap, on
// the two cores the service's read shares with it. The references run in the benchmark's process
// and read nothing. It reads with Node's own HTTP client, whose bodies come as buffers, not
// through web streams as fetch's do: reading the JSON pages again (the text kept) took 193-197 ms
// of its CPU against 224-271 ms with fetch, most of what is left being the kernel's copy of 161 MB
// from the socket.

export type PageFormat = 'json' | 'csv';

export interface PagedRead {
  seconds: number;
  bytes: number;
  rows: number;
  /** The CPU this client took in the read, user and system, in milliseconds. */
  cpuMillis: number;
}

/**
 * Pages through a result from `first`, in a reader process of its own, after one request to `warmUp`
 * (its connection open, and the client's code run once, before the time is taken); throws when a page is not 200.
 */
export function readPages(first: string, warmUp: string, key: string, format: PageFormat): Promise<PagedRead> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), format, first, warmUp], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // the key goes through stdin, never a command line another process could list
  child.stdin.end(key);
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => (output += String(chunk)));
  child.stderr.on('data', (chunk: Buffer) => (errors += String(chunk)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(JSON.parse(output) as PagedRead);
      // its error's message, the line after where it was thrown
      else reject(new Error(`the page reader exited with ${code}: ${/^\w*Error: .*$/m.exec(errors)?.[0] ?? errors.trim()}`));
    });
  });
}

/** What a page gives the reader to go on: the next page's address, and its rows. */
interface PageEnd {
  next: string | undefined;
  rows: number;
}

/**
 * A JSON page's row count and next address, read at its end: the body is not parsed, as parsing a
 * 30,000-row page took about as long as the service took to write it, and that is the client's
 * work, not the service's (the references write the text and read nothing).
 */
function jsonPageEnd(tail: Buffer): PageEnd {
  const text = tail.toString();
  const next = /"next_uri":("(?:[^"\\]|\\.)*")\}$/.exec(text);
  const rows = /"row_count":(\d+)/.exec(text);
  if (!rows) throw new Error('a JSON page without its row count at its end');
  return { next: next ? (JSON.parse(next[1]!) as string) : undefined, rows: Number(rows[1]) };
}

const TAIL_BYTES = 4096;

/** Reads one page's body as it streams: its bytes, its last bytes, and (when `lines`) its line breaks. */
async function readBody(response: IncomingMessage, lines: boolean): Promise<{ bytes: number; tail: Buffer; lineBreaks: number }> {
  let bytes = 0;
  let lineBreaks = 0;
  let tail: Buffer = Buffer.alloc(0);
  for await (const part of response as AsyncIterable<Buffer>) {
    bytes += part.length;
    if (lines) for (let at = part.indexOf(10); at !== -1; at = part.indexOf(10, at + 1)) lineBreaks++;
    tail = part.length >= TAIL_BYTES ? part.subarray(part.length - TAIL_BYTES) : Buffer.concat([tail, part]).subarray(-TAIL_BYTES);
  }
  return { bytes, tail, lineBreaks };
}

/** One connection, kept open from the warm-up on, as a paging client would. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function request(uri: string, key: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(uri, { agent, headers: { 'x-dune-api-key': key } }, resolve).once('error', reject));
}

async function pageThrough(first: string, key: string, format: PageFormat): Promise<PagedRead> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let uri: string | undefined = first;
  let bytes = 0;
  let rows = 0;
  while (uri) {
    const response = await request(uri, key);
    if (response.statusCode !== 200) throw new Error(`${uri}: HTTP ${response.statusCode}`);
    const body = await readBody(response, format === 'csv');
    bytes += body.bytes;
    if (format === 'json') {
      const end = jsonPageEnd(body.tail);
      rows += end.rows;
      uri = end.next;
    } else {
      // a CSV page is its header line and a line for each row
      rows += body.lineBreaks - 1;
      uri = (response.headers['x-dune-next-uri'] as string | undefined) ?? undefined;
    }
  }
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return { seconds, bytes, rows, cpuMillis: (used.user + used.system) / 1000 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [format, first, warmUp] = process.argv.slice(2) as [PageFormat, string, string];
  let key = '';
  for await (const chunk of process.stdin) key += String(chunk);
  const warm = await request(warmUp, key);
  await new Promise((resolve) => warm.once('end', resolve).resume());
  process.stdout.write(JSON.stringify(await pageThrough(first, key, format)));
}
