import type { Token } from './tokens.ts';

/** What a pair of brackets holds at its own level: where it closes, its commas, its first ORDER. */
export interface Group {
  close: number;
  commas: number[];
  order: number | null;
}

/**
 * Every bracket group of the tokens by the index of its opening token, found in one pass, so that
 * reading a call's arguments costs the same however deeply calls nest. A group left open closes
 * at the end of the tokens.
 */
export function bracketGroups(tokens: Token[]): Map<number, Group> {
  const groups = new Map<number, Group>();
  const open: { at: number; group: Group }[] = [];
  tokens.forEach((token, i) => {
    const top = open[open.length - 1];
    if (token.kind === 'word' && top && top.group.order === null && token.text.toLowerCase() === 'order') top.group.order = i;
    if (token.kind !== 'symbol') return;
    if (token.text === '(' || token.text === '[') {
      const group: Group = { close: tokens.length, commas: [], order: null };
      groups.set(i, group);
      open.push({ at: i, group });
    } else if ((token.text === ')' || token.text === ']') && top) {
      top.group.close = i;
      open.pop();
    } else if (token.text === ',' && top) top.group.commas.push(i);
  });
  return groups;
}

/** The token ranges (from, to) of a group's arguments: between its brackets and its commas. */
export function argumentRanges(open: number, group: Group): [number, number][] {
  const bounds = [open, ...group.commas, group.close];
  return bounds.slice(1).map((to, i) => [bounds[i]! + 1, to]);
}
