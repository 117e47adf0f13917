import { untrack } from 'svelte';
import { ACTION_IDS, ACTIONS, type ActionId, type Command } from './actions.ts';

export type Handlers = Partial<Record<ActionId, (() => void) | null | undefined>>;

/**
 * Who runs each action now. A part of the window offers the actions it can run while it is shown
 * (an `$effect` around `offer`), each with null when it does not apply; the latest offer wins
 * (a dialog's over the page's), and leaving takes its offer back.
 */
export class ActionHandlers {
  // A plain list, and a count that tells readers it changed: several parts offer in one update,
  // and a list in state read and written back by each could keep only the last offer.
  readonly #offers: Handlers[] = [];
  #changes = $state(0);

  /** Offers these until the answer is called. */
  offer(handlers: Handlers): () => void {
    this.#offers.push(handlers);
    this.#changed();
    return () => {
      this.#offers.splice(this.#offers.indexOf(handlers), 1);
      this.#changed();
    };
  }

  #changed(): void {
    // called in an effect: reading the count there would rerun it on its own change
    untrack(() => (this.#changes += 1));
  }

  handler(id: ActionId): (() => void) | null {
    void this.#changes;
    for (let i = this.#offers.length - 1; i >= 0; i -= 1) {
      const offer = this.#offers[i]!;
      if (id in offer) return offer[id] ?? null;
    }
    return null;
  }

  /** Every action, runnable or not; on another page than Queries the tab's actions do not apply. */
  commands(onQueries: boolean): Command[] {
    return ACTION_IDS.map((id) => {
      const action = ACTIONS[id];
      const run = action.scope === 'tab' && !onQueries ? null : this.handler(id);
      return { ...action, id, run };
    });
  }
}

export const actionHandlers = new ActionHandlers();
