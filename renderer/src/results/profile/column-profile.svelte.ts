import type { ColumnProfile, ContractError } from '$contract/index.ts';
import { resultIds, type ResultSource } from '../result-source.ts';

/** The profile of the column the user picked, for the view's filters; the last answer asked for wins. */
export class ProfileLoader {
  profile = $state.raw<ColumnProfile | null>(null);
  error = $state.raw<ContractError | null>(null);
  loading = $state(false);
  /** The filters the shown profile was made with. */
  filters = $state('');
  #asked = 0;

  async load(source: ResultSource, column: string, filters: string): Promise<void> {
    const asked = ++this.#asked;
    this.loading = true;
    const answer = await source.api.invoke('results:profile', { ...resultIds(source), column, ...(filters ? { filters } : {}) });
    if (asked !== this.#asked) return;
    this.loading = false;
    this.filters = filters;
    if (answer.ok) {
      this.profile = answer.data;
      this.error = null;
    } else {
      this.profile = null;
      this.error = answer.error;
    }
  }
}
