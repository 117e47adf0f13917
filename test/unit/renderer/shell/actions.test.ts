import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ACTION_IDS, ACTIONS, matches } from '../../../../renderer/src/shell/actions.ts';

const RENDERER = join(import.meta.dirname, '../../../../renderer/src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(svelte|ts)$/.test(entry.name) ? [readFileSync(path, 'utf8')] : [];
  });
}

/** The keys of the object literal that starts at `from` (its own keys, not those of objects inside it). */
function ownKeys(text: string, from: number): string[] {
  const keys: string[] = [];
  let depth = 0;
  let expectKey = false;
  for (let i = from; i < text.length; i += 1) {
    const c = text[i]!;
    if ('{(['.includes(c)) {
      depth += 1;
      expectKey = depth === 1;
    } else if ('})]'.includes(c)) {
      depth -= 1;
      if (depth === 0) break;
    } else if (depth === 1 && c === ',') {
      expectKey = true;
    } else if (expectKey && /\w/.test(c)) {
      const name = /^\w+/.exec(text.slice(i))![0];
      keys.push(name);
      i += name.length - 1;
      expectKey = false;
    }
  }
  return keys;
}

/** The action ids the renderer's parts offer to run: the keys of each `actionHandlers.offer({...})`. */
function offeredIds(): Set<string> {
  const ids = new Set<string>();
  for (const text of sources(RENDERER)) {
    for (const call of text.matchAll(/actionHandlers\.offer\(\{/g))
      ownKeys(text, call.index + call[0].length - 1).forEach((id) => ids.add(id));
  }
  return ids;
}

describe('the list of actions', () => {
  it('has a part of the window that runs each action, so none is listed that nothing does', () => {
    const offered = offeredIds();
    expect(ACTION_IDS.filter((id) => !offered.has(id))).toEqual([]);
  });

  it('offers only actions of the list', () => {
    expect([...offeredIds()].filter((id) => !(id in ACTIONS))).toEqual([]);
  });

  it('gives each action its own title and each shortcut to one action', () => {
    const titles = ACTION_IDS.map((id) => ACTIONS[id].title);
    expect(new Set(titles).size).toBe(titles.length);
    const keys = ACTION_IDS.flatMap((id) => ('keys' in ACTIONS[id] ? [ACTIONS[id].keys] : []));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('finds an action by its other words, as the palette does', () => {
    expect(ACTION_IDS.filter((id) => matches(ACTIONS[id], 'rename'))).toEqual(['details']);
    expect(ACTION_IDS.filter((id) => matches(ACTIONS[id], ' TAG '))).toEqual(['details']);
    expect(ACTION_IDS.filter((id) => matches(ACTIONS[id], 'parquet'))).toEqual(['export']);
  });
});
