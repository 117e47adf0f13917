// How long to wait before trying again after failures in a row: a first wait doubled per failure up
// to a ceiling, then spread by jitter so that many clients refused together do not come back
// together. Each caller keeps its own first wait, ceiling and jitter: a request's retry, an
// account's reconnection and an execution's next poll want different ones.

/** `firstMs` doubled `doublings` times (none when below one), never past `ceilingMs`. */
export function doubled(firstMs: number, doublings: number, ceilingMs: number): number {
  return Math.min(ceilingMs, firstMs * 2 ** Math.max(0, doublings));
}

/** The share of a wait jitter may give: from `from`, up to `from + spread` (excluded). */
export interface Jitter {
  from: number;
  spread: number;
}

/** `ms` times a share drawn by `random` (in [0, 1)) within `jitter`, in whole milliseconds. */
export function jittered(ms: number, jitter: Jitter, random: () => number = Math.random): number {
  return Math.round(ms * (jitter.from + jitter.spread * random()));
}
