import { describe, expect, it } from 'vitest';
import { KeyedSerialQueue, SerialQueue } from '../../../main/common/serial-queue.ts';

/** A promise settled from outside, so a test decides when each piece of work ends. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('SerialQueue', () => {
  it('starts each call only once the one before has settled, in the order asked', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const first = gate();
    const a = queue.run(async () => {
      log.push('a starts');
      await first.opened;
      log.push('a ends');
      return 'a';
    });
    const b = queue.run(async () => {
      log.push('b starts');
      return 'b';
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['a starts']);
    first.open();
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(log).toEqual(['a starts', 'a ends', 'b starts']);
  });

  it('gives a failure to its own caller only: the next call still runs', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(() => Promise.reject(new Error('first')));
    const next = queue.run(() => Promise.resolve(2));
    await expect(failed).rejects.toThrow('first');
    expect(await next).toBe(2);
  });

  it('settles after every call asked for so far, and never rejects', async () => {
    const queue = new SerialQueue();
    const done: number[] = [];
    void queue.run(async () => void done.push(1));
    queue.run(() => Promise.reject(new Error('x'))).catch(() => undefined);
    void queue.run(async () => void done.push(3));
    await queue.settled();
    expect(done).toEqual([1, 3]);
  });
});

describe('KeyedSerialQueue', () => {
  it('runs one key one call at a time, but does not make another key wait', async () => {
    const queue = new KeyedSerialQueue();
    const log: string[] = [];
    const held = gate();
    const a1 = queue.run('a', async () => {
      await held.opened;
      log.push('a1');
    });
    const a2 = queue.run('a', async () => void log.push('a2'));
    await queue.run('b', async () => void log.push('b1'));
    expect(log).toEqual(['b1']);
    held.open();
    await Promise.all([a1, a2]);
    expect(log).toEqual(['b1', 'a1', 'a2']);
  });

  it('runs the next call of a key after a failed one', async () => {
    const queue = new KeyedSerialQueue();
    const failed = queue.run('k', () => Promise.reject(new Error('no')));
    await expect(failed).rejects.toThrow('no');
    expect(await queue.run('k', () => Promise.resolve('yes'))).toBe('yes');
  });
});
