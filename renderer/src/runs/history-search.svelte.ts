import type { ContractError, HistoryEntry } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';

/** Runs listed at most: the search narrows the rest. */
const SHOWN = 200;
/** Typing settles this long before the search is sent. */
const SETTLE_MS = 80;

/** The history panel's search over every run this app started, of every account, as main keeps them. */
export class HistorySearch {
  readonly #api: Api;
  entries = $state.raw<HistoryEntry[]>([]);
  /** Runs that hold the words, of which `entries` are the newest. */
  total = $state(0);
  /** Lines of the history main could not read, skipped. */
  skipped = $state(0);
  error = $state.raw<ContractError | null>(null);
  /** No answer yet for the first search. */
  loading = $state(true);
  #asked = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(api: Api) {
    this.#api = api;
  }

  /** Searches for `text`, once typing settles; a newer search wins over an older answer. */
  search(text: string, now = false): void {
    clearTimeout(this.#timer);
    const asked = ++this.#asked;
    const send = async () => {
      const answer = await this.#api.invoke('executions:history', { text: text.slice(0, 500), limit: SHOWN });
      if (asked !== this.#asked) return;
      this.loading = false;
      if (!answer.ok) {
        this.error = answer.error;
        return;
      }
      this.error = null;
      this.entries = answer.data.entries;
      this.total = answer.data.total;
      this.skipped = answer.data.skipped;
    };
    if (now) void send();
    else this.#timer = setTimeout(() => void send(), SETTLE_MS);
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.#asked++;
  }
}
