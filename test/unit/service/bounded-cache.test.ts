import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../../main/service/bounded-cache.ts';

/** A cache of texts sized by their length, recording what leaves it. */
function texts(size: number, entries?: number) {
  const removed: string[] = [];
  const cache = new BoundedCache<string, string>({
    size,
    entries,
    sizeOf: (text) => text.length,
    removed: (_, key) => void removed.push(key),
  });
  return { cache, removed };
}

describe('a bounded cache', () => {
  it('evicts by size, least recently used first, and tells each entry that leaves', () => {
    const { cache, removed } = texts(10);
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    expect(cache.get('a')).toBe('aaaa');
    cache.set('c', 'cccc');
    expect(removed).toEqual(['b']);
    expect([cache.has('a'), cache.has('b'), cache.has('c'), cache.size]).toEqual([true, false, true, 8]);
  });

  it('evicts by count too', () => {
    const { cache, removed } = texts(100, 2);
    for (const key of ['a', 'b', 'c']) cache.set(key, key);
    expect(removed).toEqual(['a']);
    expect(cache.count).toBe(2);
  });

  it('keeps an entry larger than all alone, as the one used last', () => {
    const { cache, removed } = texts(10);
    cache.set('a', 'aaa');
    cache.set('huge', 'x'.repeat(25));
    expect(removed).toEqual(['a']);
    expect([cache.get('huge')?.length, cache.size]).toEqual([25, 25]);
  });

  it('keeps nothing with a size of 0, telling each entry it leaves at once', () => {
    const { cache, removed } = texts(0);
    cache.set('a', 'aaa');
    expect([cache.has('a'), removed, cache.size]).toEqual([false, ['a'], 0]);
  });

  it('changes the size of an entry being made, keeping its value and evicting others past the budget', () => {
    const { cache, removed } = texts(10);
    cache.set('old', 'oooooo');
    cache.set('made', 'later', 0);
    expect(cache.size).toBe(6);
    cache.resize('made', 'later', 8);
    expect([removed, cache.get('made'), cache.size]).toEqual([['old'], 'later', 8]);
    // a value no longer kept under the key is not resized
    cache.resize('made', 'other', 1);
    expect(cache.size).toBe(8);
  });

  it('tells a value replaced under its key, but not one set again', () => {
    const { cache, removed } = texts(100);
    cache.set('a', 'one');
    cache.set('a', 'one');
    expect(removed).toEqual([]);
    cache.set('a', 'two');
    expect([removed, cache.size]).toEqual([['a'], 3]);
  });

  it('deletes an entry only when it holds the value given, and those a test picks', () => {
    const { cache, removed } = texts(100);
    cache.set('e1 a', 'x');
    cache.set('e1 b', 'y');
    cache.set('e2 a', 'z');
    expect(cache.delete('e1 a', 'other')).toBe(false);
    cache.deleteWhere((_, key) => key.startsWith('e1 '));
    expect([...cache.entries()]).toEqual([['e2 a', 'z']]);
    expect(removed.toSorted()).toEqual(['e1 a', 'e1 b']);
    cache.clear();
    expect([removed.length, cache.size, cache.count]).toEqual([3, 0, 0]);
  });

  it('lists entries least recently used first, and peek does not count as a use', () => {
    const { cache } = texts(100);
    for (const key of ['a', 'b', 'c']) cache.set(key, key);
    cache.get('a');
    cache.peek('b');
    expect([...cache.entries()].map(([key]) => key)).toEqual(['b', 'c', 'a']);
  });
});

describe('taking an entry out of a bounded cache', () => {
  it('removes it without telling, its size no longer counted', () => {
    const { cache, removed } = texts(10);
    cache.set('a', 'aaaa');
    expect([cache.take('a'), cache.take('a'), removed, cache.size, cache.has('a')]).toEqual(['aaaa', undefined, [], 0, false]);
  });
});

describe('work begun as an entry leaves', () => {
  it('is waited for by removalsDone, which throws the first error of it', async () => {
    const finished: string[] = [];
    const cache = new BoundedCache<string, string>({
      entries: 1,
      removed: async (value) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        finished.push(value);
        if (value === 'bad') throw new Error('could not drop bad');
      },
    });
    cache.set('a', 'good');
    cache.set('b', 'bad');
    cache.set('c', 'last');
    expect(finished).toEqual([]);
    await expect(cache.removalsDone()).rejects.toThrow('could not drop bad');
    expect(finished).toEqual(['good', 'bad']);
    await expect(cache.removalsDone()).resolves.toBeUndefined();
  });
});
