import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../main/service/http/http-error.ts';
import { UploadSlots } from '../../../main/service/http/upload-slots.ts';

/** Work that runs until `finish` is called, recording when it started. */
function gatedWork(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: async () => void (started.push(name), await done), finish };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('UploadSlots', () => {
  it('runs at most as many uploads as it has slots; the rest start in arrival order as slots free', async () => {
    const slots = new UploadSlots(2, 5);
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
    const slots = new UploadSlots(1, 1);
    await expect(slots.run(async () => Promise.reject(new Error('bad body')))).rejects.toThrow('bad body');
    const started: string[] = [];
    const first = gatedWork(started, 'first');
    const second = gatedWork(started, 'second');
    const running = slots.run(first.work);
    const waiting = slots.run(second.work);
    const refused = slots.run(async () => undefined);
    await expect(refused).rejects.toSatisfy((e) => e instanceof HttpError && e.status === 429);
    first.finish();
    second.finish();
    await Promise.all([running, waiting]);
    expect(started).toEqual(['first', 'second']);
  });
});
