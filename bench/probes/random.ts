// A small seeded generator (mulberry32): a fuzz run is replayed exactly from its seed.

export interface Random {
  /** In [0, 1). */
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function seeded(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

const ODD_TEXT = [
  '',
  ' ',
  '%',
  '%00',
  '\u0000',
  '..',
  '../..',
  "'",
  '"',
  '\\',
  '{{x}}',
  '😀',
  'ü',
  '\n',
  'a'.repeat(5000),
  '-1',
  '1e999',
  'NaN',
  'null',
  '[]',
  '{}',
];

/** Text changed a little: characters dropped, doubled or replaced, or something odd put in. */
export function mutate(random: Random, text: string): string {
  let out = text;
  const edits = random.int(1, 3);
  for (let i = 0; i < edits; i++) {
    const at = random.int(0, out.length);
    switch (random.int(0, 3)) {
      case 0:
        out = out.slice(0, at) + out.slice(at + random.int(1, 4));
        break;
      case 1:
        out = out.slice(0, at) + out.slice(at, at + random.int(1, 6)).repeat(2) + out.slice(at);
        break;
      case 2:
        out = out.slice(0, at) + random.pick(ODD_TEXT) + out.slice(at);
        break;
      default:
        out = out.slice(0, at) + String.fromCharCode(random.int(0, 0x2fff)) + out.slice(at + 1);
    }
  }
  return out;
}

/** Sometimes the value as it is, sometimes something odd in its place. */
export function oddly(random: Random, text: string, p = 0.25): string {
  if (!random.chance(p)) return text;
  return random.chance(0.5) ? mutate(random, text) : random.pick(ODD_TEXT);
}
