import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** What V8's collector takes, as Node exposes it under `--expose-gc`. */
export type CollectOptions = { type: 'minor'; execution: 'sync' } | { type: 'major'; execution: 'sync'; flavor: 'last-resort' };

type Collect = (options: CollectOptions) => void;

let collect: Collect | null = null;

/** V8's collector, for this thread: the flag set now holds for contexts made after, such as the one it is taken from. */
export function collectGarbage(options: CollectOptions): void {
  if (collect === null) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
  }
  collect(options);
}
