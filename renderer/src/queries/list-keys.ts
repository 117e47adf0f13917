// The keys that move the selection in the query list, as in a native list box.

const PAGE = 10;

/** The index a key moves the selection to from `current` (-1: none) in a list of `length`; undefined for other keys. */
export function listMove(key: string, current: number, length: number): number | undefined {
  const moves: Record<string, number> = {
    ArrowDown: current + 1,
    ArrowUp: current < 0 ? 0 : current - 1,
    PageDown: current + PAGE,
    PageUp: current - PAGE,
    Home: 0,
    End: length - 1,
  };
  return moves[key];
}
