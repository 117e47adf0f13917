import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBytes, SpareMemory } from '../../../../main/service/results/spare-memory.ts';

const MB = 1024 * 1024;

describe('spare memory', () => {
  it('gives back memory taken from it to text of about the same size, never to text far smaller or larger', () => {
    const spare = new SpareMemory(64 * MB);
    const first = spare.take(2 * MB);
    expect(first.length).toBe(2 * MB);
    spare.give(first);
    expect(spare.bytes).toBeGreaterThanOrEqual(2 * MB);
    // far larger, or less than half of it: new memory, and the spare stays
    expect(spare.take(3 * MB).buffer).not.toBe(first.buffer);
    expect(spare.take(MB / 2).buffer).not.toBe(first.buffer);
    const again = spare.take(1_900_000);
    expect([again.buffer, again.length, spare.bytes]).toEqual([first.buffer, 1_900_000, 0]);
  });

  it('takes the smallest spare that fits', () => {
    const spare = new SpareMemory(64 * MB);
    const [large, small] = [spare.take(3 * MB), spare.take(2 * MB)];
    spare.give(large);
    spare.give(small);
    expect(spare.take(1_900_000).buffer).toBe(small.buffer);
    expect(spare.take(1_900_000).buffer).toBe(large.buffer);
  });

  it('keeps only memory it handed out, once, within its limit, the oldest going first', () => {
    const spare = new SpareMemory(5 * MB);
    spare.give(Buffer.alloc(MB));
    expect(spare.bytes).toBe(0);
    const [a, b, c] = [spare.take(2 * MB), spare.take(2 * MB), spare.take(2 * MB)];
    spare.give(a);
    spare.give(a);
    expect(spare.bytes).toBe(a.buffer.byteLength);
    spare.give(b);
    spare.give(c);
    // a went to make room: b and c are spare
    expect(spare.bytes).toBe(b.buffer.byteLength + c.buffer.byteLength);
    expect(new Set([spare.take(2 * MB).buffer, spare.take(2 * MB).buffer])).toEqual(new Set([b.buffer, c.buffer]));
    expect(spare.take(2 * MB).buffer).not.toBe(a.buffer);
  });
});

describe('reading a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'querydesk-spare-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'text');
  writeFileSync(file, 'abcdefghij');

  it('reads it whole, or a range of it, into the memory it is given', async () => {
    const spare = new SpareMemory(MB);
    const whole = await readBytes(file, (size) => spare.take(size));
    expect(whole.toString()).toBe('abcdefghij');
    expect((await readBytes(file, (size) => Buffer.alloc(size), 2, 5)).toString()).toBe('cde');
  });

  it('names the file that is shorter than the range asked', async () => {
    await expect(readBytes(file, (size) => Buffer.alloc(size), 5, 20)).rejects.toThrow(`${file} ended after 10 of 20 bytes`);
  });
});
