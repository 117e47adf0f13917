import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../../main/service/http/http-error.ts';
import { Slots, SlotsByKey } from '../../../../main/service/http/slots.ts';

/** Work that runs until `finish` is called, recording when it started. */
function gatedWork(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: async () => void (started.push(name), await done), finish };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('Slots', () => {
  it('runs at most as many uploads as it has slots; the rest start in arrival order as slots free', async () => {
    const slots = new Slots(2, 5, 'uploads');
    const started: string[] = [];
    const uploads = ['a', 'b', 'c', 'd'].map((name) => gatedWork(started, name));
    const runs = uploads.map((u) => slots.run(u.work));
    await settle();
    expect(started).toEqual(['a', 'b']);
    uploads[1]!.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    uploads[0]!.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    uploads[2]!.finish();
    uploads[3]!.finish();
    await Promise.all(runs);
  });

  it('frees the slot of an upload that fails, and refuses with a 429 past the waiting bound', async () => {
    const slots = new Slots(1, 1, 'uploads');
    await expect(slots.run(async () => Promise.reject(new Error('bad body')))).rejects.toThrow('bad body');
    const started: string[] = [];
    const first = gatedWork(started, 'first');
    const second = gatedWork(started, 'second');
    const running = slots.run(first.work);
    const waiting = slots.run(second.work);
    const refused = slots.run(async () => undefined);
    await expect(refused).rejects.toSatisfy((e) => e instanceof HttpError && e.status === 429);
    await expect(refused).rejects.toThrow('1 uploads are already waiting; try again shortly');
    first.finish();
    second.finish();
    await Promise.all([running, waiting]);
    expect(started).toEqual(['first', 'second']);
  });
});

describe('SlotsByKey', () => {
  it('gives each key slots of its own: a key with its slots taken holds up only its own work', async () => {
    const byKey = new SlotsByKey(() => new Slots(1, 10, 'pages'));
    const started: string[] = [];
    const a1 = gatedWork(started, 'a1');
    const a2 = gatedWork(started, 'a2');
    const b1 = gatedWork(started, 'b1');
    const runs = [byKey.run('a', a1.work), byKey.run('a', a2.work), byKey.run('b', b1.work)];
    await settle();
    expect(started).toEqual(['a1', 'b1']);
    b1.finish();
    await settle();
    expect(started).toEqual(['a1', 'b1']);
    a1.finish();
    await settle();
    expect(started).toEqual(['a1', 'b1', 'a2']);
    a2.finish();
    await Promise.all(runs);
  });

  it('forgets a key once its work is done, failed or not', async () => {
    const byKey = new SlotsByKey(() => new Slots(1, 10, 'pages'));
    await byKey.run('a', async () => undefined);
    await expect(byKey.run('b', async () => Promise.reject(new Error('no page')))).rejects.toThrow('no page');
    expect(byKey.keys).toBe(0);
    const started: string[] = [];
    const held = gatedWork(started, 'held');
    const running = byKey.run('a', held.work);
    await settle();
    expect(byKey.keys).toBe(1);
    held.finish();
    await running;
    expect(byKey.keys).toBe(0);
  });
});
