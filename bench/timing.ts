// What every benchmark takes of its samples: the middle one, and how long a piece of work took.

/** The middle of `values` (the upper middle of an even count), leaving `values` as they were. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** How long `work` took, in milliseconds, with what it answered. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}
