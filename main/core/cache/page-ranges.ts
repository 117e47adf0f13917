// Which rows of a result are still to be asked for, as ranges of row positions. Every page is
// planned up front, so that several can be asked for at once without waiting for the first to
// say how large the service's pages are; a page the service cut short (it may lower the limit)
// leaves its rest to ask for, and the ranges not yet asked for are cut to the size it gave.

export interface RowRange {
  /** The first row's position. */
  offset: number;
  /** The position after the last row. */
  end: number;
}

export class PageRanges {
  #pending: RowRange[] = [];
  #pageRows: number;

  /** The ranges of `pageRows` rows from `from` up to `totalRows`. */
  constructor(from: number, totalRows: number, pageRows: number) {
    this.#pageRows = Math.max(1, pageRows);
    for (let offset = from; offset < totalRows; offset += this.#pageRows) {
      this.#pending.push({ offset, end: Math.min(totalRows, offset + this.#pageRows) });
    }
  }

  get remaining(): number {
    return this.#pending.length;
  }

  /** The range nearest the start, so that pages arrive in about the order they are loaded. */
  take(): RowRange | undefined {
    return this.#pending.shift();
  }

  /**
   * Where the page asked for as `range` ended, from the service's next offset (null after the last
   * row): the rows it holds, or an Error when that offset goes backwards.
   */
  arrived(range: RowRange, nextOffset: number | null): RowRange | Error {
    if (nextOffset === null || nextOffset >= range.end) return range;
    if (nextOffset <= range.offset) return new Error(`The service gave ${nextOffset} as the offset after ${range.offset}.`);
    const pageRows = Math.min(this.#pageRows, nextOffset - range.offset);
    this.#pageRows = pageRows;
    this.#pending = [...this.#pending, { offset: nextOffset, end: range.end }]
      .flatMap(({ offset, end }) => {
        const pieces: RowRange[] = [];
        for (let at = offset; at < end; at += pageRows) pieces.push({ offset: at, end: Math.min(end, at + pageRows) });
        return pieces;
      })
      .sort((a, b) => a.offset - b.offset);
    return { offset: range.offset, end: nextOffset };
  }
}

/**
 * The pages a download asks for before the result's status answers: as many as `mostPages` when the
 * app knows the result's rows (from a status it just read, or the run it watched end), so that over
 * a link they come in the status's round trip rather than one after it, and none past the last row;
 * else only the first, since most results fit in a page and a real service counts every request
 * against its rate limit.
 */
export function earlyRanges(from: number, knownRows: number | null, pageRows: number, mostPages: number): RowRange[] {
  if (knownRows === null) return [{ offset: from, end: from + pageRows }];
  const planned = new PageRanges(from, knownRows, pageRows);
  return Array.from({ length: Math.min(mostPages, planned.remaining) }, () => planned.take()!);
}
