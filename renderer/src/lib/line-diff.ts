// Which lines two texts share and which only one of them has, for showing two versions of a
// query side by side: the longest common subsequence of their lines.

export type LineChange = 'same' | 'removed' | 'added';

export interface DiffLine {
  change: LineChange;
  text: string;
}

/**
 * Past this many cells (lines of one times lines of the other, once the shared start and end are
 * set aside) the table would take too much memory: the middle is shown as removed, then added.
 */
const MAX_CELLS = 4_000_000;

/** `before` turned into `after`, line by line: removed lines come before the added lines that replace them. */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end += 1;
  const same = (text: string): DiffLine => ({ change: 'same', text });
  return [
    ...a.slice(0, start).map(same),
    ...middle(a.slice(start, a.length - end), b.slice(start, b.length - end)),
    ...a.slice(a.length - end).map(same),
  ];
}

function middle(a: string[], b: string[]): DiffLine[] {
  const removed = (text: string): DiffLine => ({ change: 'removed', text });
  const added = (text: string): DiffLine => ({ change: 'added', text });
  if (a.length * b.length > MAX_CELLS) return [...a.map(removed), ...b.map(added)];
  // lengths[i * width + j]: the longest common subsequence of a[i..] and b[j..]
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lengths[i * width + j] =
        a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ change: 'same', text: a[i]! });
      i += 1;
      j += 1;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      out.push(removed(a[i]!));
      i += 1;
    } else {
      out.push(added(b[j]!));
      j += 1;
    }
  }
  return [...out, ...a.slice(i).map(removed), ...b.slice(j).map(added)];
}

/** How many lines only one side has. */
export function countChanges(lines: DiffLine[]): { removed: number; added: number } {
  let removed = 0;
  let added = 0;
  for (const line of lines) {
    if (line.change === 'removed') removed += 1;
    else if (line.change === 'added') added += 1;
  }
  return { removed, added };
}
