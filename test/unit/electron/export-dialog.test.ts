import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

// The Electron host's export destination: the save dialog, with Electron's dialog replaced.

const fake = vi.hoisted(() => ({
  answer: { canceled: false, filePath: '' } as { canceled: boolean; filePath?: string },
  calls: [] as { window: unknown; options: { defaultPath: string; filters: unknown } }[],
}));

vi.mock('electron', () => ({
  app: { getPath: (name: string) => `/home/u/${name}` },
  dialog: {
    showSaveDialog: async (...args: unknown[]) => {
      const [window, options] = args.length === 2 ? args : [null, args[0]];
      fake.calls.push({ window, options: options as { defaultPath: string; filters: unknown } });
      return fake.answer;
    },
  },
}));

const { saveDialogDestinations } = await import('../../../main/electron/export-dialog.ts');
const dir = mkdtempSync(join(tmpdir(), 'querydesk-dialog-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the export save dialog', () => {
  it('opens over the window in Downloads with the suggested name only, and writes where the user chose', async () => {
    const window = { id: 1 };
    fake.answer = { canceled: false, filePath: join(dir, 'chosen.csv') };
    const target = await saveDialogDestinations(
      () => window as never,
      () => null,
    ).choose('X1', '../../etc/result.csv', 'csv');
    expect(fake.calls.at(-1)).toEqual({
      window,
      options: expect.objectContaining({ defaultPath: '/home/u/downloads/result.csv', filters: [{ name: 'CSV', extensions: ['csv'] }] }),
    });
    expect(target?.delivery).toEqual({ kind: 'file', path: join(dir, 'chosen.csv') });
    const stream = await target!.open();
    stream.end('a,b\n1,2\n');
    await new Promise((resolve) => stream.once('finish', resolve));
    await target!.finish();
    expect(readFileSync(join(dir, 'chosen.csv'), 'utf8')).toBe('a,b\n1,2\n');
  });

  it('declines when the dialog is closed, and works without a window', async () => {
    fake.answer = { canceled: true };
    expect(
      await saveDialogDestinations(
        () => null,
        () => null,
      ).choose('X2', 'r.csv', 'csv'),
    ).toBeNull();
    expect(fake.calls.at(-1)?.window).toBeNull();
  });

  it('opens in the export folder chosen in Settings, offering the format asked for', async () => {
    fake.answer = { canceled: true };
    await saveDialogDestinations(
      () => null,
      () => '/data/exports',
    ).choose('X3', 'r.parquet', 'parquet');
    expect(fake.calls.at(-1)?.options).toMatchObject({
      title: 'Export Parquet',
      defaultPath: '/data/exports/r.parquet',
      filters: [{ name: 'Parquet', extensions: ['parquet'] }],
    });
  });
});
