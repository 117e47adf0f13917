import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startLink, type LinkOptions } from './link-proxy.ts';

// The simulated link in a process of its own. In the benchmark's process, every pause of the app's
// event loop there (a collection, a file write; up to 40 ms at the 99th percentile during a
// download) also held the link's deliveries: a line that stops whenever the client is busy, which
// no real line does while the client's network stack takes the bytes in.

export interface LinkChild {
  origin: string;
  /** Bytes carried from the service to the clients so far. */
  downBytes(): Promise<number>;
  close(): Promise<void>;
}

type Message = { origin: string } | { bytes: number };

export async function startLinkChild(targetPort: number, options: LinkOptions): Promise<LinkChild> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [String(targetPort), JSON.stringify(options)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<Message>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`the link exited (${code})`));
      child.once('exit', exited);
      child.once('message', (message) => {
        // one listener for each answer awaited, gone with it
        child.off('exit', exited);
        resolve(message as Message);
      });
    });
  const { origin } = (await next()) as { origin: string };
  return {
    origin,
    async downBytes() {
      const answer = next();
      child.send('bytes');
      return ((await answer) as { bytes: number }).bytes;
    },
    async close() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

// run as the child: the link, until the parent goes
if (process.send !== undefined && process.argv[1] === fileURLToPath(import.meta.url)) {
  const [port, options] = process.argv.slice(2) as [string, string];
  const link = await startLink(Number(port), JSON.parse(options) as LinkOptions);
  process.on('message', () => process.send!({ bytes: link.downBytes() }));
  process.on('disconnect', () => void link.close().then(() => process.exit(0)));
  process.send({ origin: link.origin });
}
