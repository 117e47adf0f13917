import type { ServiceBudget } from './plan-limits.ts';

/**
 * The service's memory and spill for executions, shared by the contexts' DuckDBs: each takes its
 * plan's share for as long as it lives (its memory limit bounds its buffer pool, which holds table
 * blocks read even between executions), and gives it back when it is closed.
 */
export class ExecutionBudget {
  #free: ServiceBudget;
  #waiters: (() => void)[] = [];

  constructor(total: ServiceBudget) {
    this.#free = { ...total };
  }

  fits(amount: ServiceBudget): boolean {
    return amount.memoryBytes <= this.#free.memoryBytes && amount.spillBytes <= this.#free.spillBytes;
  }

  /** Takes `amount` when it fits; false, taking nothing, when it does not. */
  take(amount: ServiceBudget): boolean {
    if (!this.fits(amount)) return false;
    this.#free.memoryBytes -= amount.memoryBytes;
    this.#free.spillBytes -= amount.spillBytes;
    return true;
  }

  give(amount: ServiceBudget): void {
    this.#free.memoryBytes += amount.memoryBytes;
    this.#free.spillBytes += amount.spillBytes;
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Resolves once something was given back. */
  released(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}
