import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonFileStore } from '../../../../main/core/settings/settings-store.ts';

const Settings = z.object({ activeAccountId: z.string().nullable(), theme: z.enum(['system', 'light', 'dark']) });
const defaults = () => ({ activeAccountId: null, theme: 'system' as const });

describe('jsonFileStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'settings-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the defaults when there is no file, then reads back what was written', () => {
    const store = jsonFileStore(join(dir, 'nested', 'settings.json'), Settings, defaults);
    expect(store.read()).toEqual(defaults());
    store.write({ activeAccountId: 'acct-1', theme: 'dark' });
    expect(jsonFileStore(join(dir, 'nested', 'settings.json'), Settings, defaults).read()).toEqual({
      activeAccountId: 'acct-1',
      theme: 'dark',
    });
    expect(readdirSync(join(dir, 'nested'))).toEqual(['settings.json']);
  });

  it('refuses to write a value its schema rejects, leaving the file as it was', () => {
    const path = join(dir, 'settings.json');
    const store = jsonFileStore(path, Settings, defaults);
    store.write({ activeAccountId: 'a', theme: 'light' });
    expect(() => store.write({ activeAccountId: 'b', theme: 'purple' } as never)).toThrow();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ activeAccountId: 'a', theme: 'light' });
  });

  it('keeps an unreadable file aside instead of losing it', () => {
    const path = join(dir, 'settings.json');
    writeFileSync(path, '{"activeAccountId": 42, "theme": ');
    expect(jsonFileStore(path, Settings, defaults).read()).toEqual(defaults());
    expect(existsSync(path)).toBe(false);
    const kept = readdirSync(dir).filter((name) => name.startsWith('settings.json.unreadable-'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, kept[0] as string), 'utf8')).toBe('{"activeAccountId": 42, "theme": ');
  });
});
