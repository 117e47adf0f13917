import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, channels, CHANNELS_BY_PREFIX } from '../../../main/contract/index.ts';

// Issue 34: a channel `<prefix>:<name>` is declared in `main/contract/<prefix>.ts` and handled in
// `main/core/handlers/<prefix>.ts`, so the file of any channel is found from its name alone.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const contractDir = join(root, 'main/contract');
const handlersDir = join(root, 'main/core/handlers');
const prefixOf = (channel: string) => channel.slice(0, channel.indexOf(':'));
const tsFiles = (dir: string) => readdirSync(dir).filter((file) => file.endsWith('.ts'));

/** Exported objects of a module that map channel names to `{ request, response }`. */
function channelMaps(module: Record<string, unknown>): Record<string, unknown>[] {
  return Object.values(module).filter(
    (value): value is Record<string, unknown> =>
      typeof value === 'object' &&
      value !== null &&
      Object.entries(value).some(([key, entry]) => key.includes(':') && typeof entry === 'object' && entry !== null && 'request' in entry),
  );
}

/** The channels a handler file answers: the quoted keys its handler objects define. */
function handledIn(file: string): string[] {
  const text = readFileSync(join(handlersDir, file), 'utf8');
  return [...text.matchAll(/^\s+'([a-z]+:[A-Za-z]+)':/gm)].map((match) => match[1] ?? '');
}

describe('channels grouped by prefix', () => {
  it('assembles the one channel map from the prefix files, with every channel name once', () => {
    const fromPrefixes = Object.values(CHANNELS_BY_PREFIX).flatMap((map) => Object.keys(map));
    expect([...fromPrefixes].sort()).toEqual([...CHANNEL_NAMES].sort());
    expect(Object.keys(channels).sort()).toEqual([...CHANNEL_NAMES].sort());
  });

  it('keeps each prefix in the contract file of its name', async () => {
    for (const [prefix, map] of Object.entries(CHANNELS_BY_PREFIX)) {
      expect(
        Object.keys(map).filter((channel) => prefixOf(channel) !== prefix),
        `${prefix}'s channels`,
      ).toEqual([]);
      const module = (await import(pathToFileURL(join(contractDir, `${prefix}.ts`)).href)) as Record<string, unknown>;
      expect(Object.values(module), `main/contract/${prefix}.ts exports its channels`).toContain(map);
    }
  });

  it('declares no channel in a contract file of another name', async () => {
    const misplaced: string[] = [];
    for (const file of tsFiles(contractDir).filter((name) => name !== 'channels.ts' && name !== 'index.ts')) {
      const module = (await import(pathToFileURL(join(contractDir, file)).href)) as Record<string, unknown>;
      const declared = channelMaps(module).flatMap((map) => Object.keys(map));
      misplaced.push(
        ...declared.filter((channel) => prefixOf(channel) !== basename(file, '.ts')).map((channel) => `${channel} in ${file}`),
      );
    }
    expect(misplaced).toEqual([]);
  });

  it('handles each channel in the handler file of its prefix, and nowhere else', () => {
    const handled = tsFiles(handlersDir).flatMap((file) => handledIn(file).map((channel) => ({ channel, file })));
    expect(handled.filter(({ channel, file }) => `${prefixOf(channel)}.ts` !== file)).toEqual([]);
    expect(handled.map(({ channel }) => channel).sort()).toEqual([...CHANNEL_NAMES].sort());
  });
});
