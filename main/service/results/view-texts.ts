import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import { BoundedCache } from '../bounded-cache.ts';
import { textPage, type RowsText } from './json-lines.ts';
import type { Page } from './page.ts';

// Texts kept at once, in bytes, and the most cells (rows times columns) a view may have to be made
// into one: two million cells make a text of some tens of megabytes.
const KEPT_BYTES = SERVICE_CACHES.viewTextBytes;
const MOST_CELLS = 2_000_000;

/** A view's text for a set of columns: kept, or being made. */
interface ViewText {
  view: string;
  /** Null while it is made, or when it came out larger than all texts may be. */
  text: RowsText | null;
  made: Promise<void>;
}

/**
 * The JSON text of views' rows, whole, made once for each set of columns asked for: a page is then
 * a slice of it, without DuckDB. Under 16 clients reading pages of one view, planning and running
 * each page's statement took most of the service's time. The first JSON page of a view makes its
 * text (about as long as making the view took); pages asked for meanwhile wait for it.
 */
export class ViewTexts {
  /** Sized by their text's bytes: nothing while it is made, or when none could be. */
  readonly #kept = new BoundedCache<string, ViewText>({ size: KEPT_BYTES });

  /**
   * The page, from the text of `view` for `columns`, made by `make` (null when it would be larger
   * than the bytes it is given) if it is not kept; null when the view has too many cells for a
   * text, or its text could not be made or kept.
   */
  async page(
    view: string,
    columns: string,
    cells: number,
    offset: number,
    limit: number,
    make: (maxBytes: number) => Promise<RowsText | null>,
  ): Promise<Page | null> {
    if (cells > MOST_CELLS) return null;
    const key = `${view}\u0000${columns}`;
    const kept = this.#kept.get(key) ?? this.#make(key, view, make);
    await kept.made;
    return kept.text && textPage(kept.text, offset, limit);
  }

  /** Forgets the texts of a view that is dropped. */
  forget(view: string): void {
    this.#kept.deleteWhere((kept) => kept.view === view);
  }

  #make(key: string, view: string, make: (maxBytes: number) => Promise<RowsText | null>): ViewText {
    const kept: ViewText = { view, text: null, made: Promise.resolve() };
    this.#kept.set(key, kept, 0);
    kept.made = make(KEPT_BYTES).then(
      (text) => {
        // the view may have gone meanwhile; a text larger than all may be is not made (pages come from DuckDB)
        if (this.#kept.peek(key) !== kept || text === null) return;
        kept.text = text;
        this.#kept.resize(key, kept, text.body.length);
      },
      // a view dropped while its text was made: pages come from DuckDB, and a view made again tries again
      () => {
        this.#kept.delete(key, kept);
      },
    );
    return kept;
  }
}
