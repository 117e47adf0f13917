import { tooManyWaiting } from './http-error.ts';

/**
 * A bound on work of one kind under way at once; the rest waits, not begun, in arrival order, and
 * past `maxWaiting` is refused with a 429 that names `what` waits (uploads, pages).
 */
export class Slots {
  #free: number;
  #maxWaiting: number;
  #what: string;
  #waiting: (() => void)[] = [];

  constructor(slots: number, maxWaiting: number, what: string) {
    this.#free = slots;
    this.#maxWaiting = maxWaiting;
    this.#what = what;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else {
      if (this.#waiting.length >= this.#maxWaiting) {
        throw tooManyWaiting(`${this.#waiting.length} ${this.#what} are already waiting; try again shortly`);
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next)
        next(); // the slot passes straight to the next in line
      else this.#free++;
    }
  }
}

/** Slots of their own for each key (a context): one key's queue never holds up another's work. */
export class SlotsByKey {
  readonly #make: () => Slots;
  /** Only keys with work under way or waiting. */
  #byKey = new Map<string | number, { slots: Slots; users: number }>();

  constructor(make: () => Slots) {
    this.#make = make;
  }

  async run<T>(key: string | number, work: () => Promise<T>): Promise<T> {
    const entry = this.#byKey.get(key) ?? { slots: this.#make(), users: 0 };
    this.#byKey.set(key, entry);
    entry.users++;
    try {
      return await entry.slots.run(work);
    } finally {
      if (--entry.users === 0) this.#byKey.delete(key);
    }
  }

  /** The keys with work under way or waiting. */
  get keys(): number {
    return this.#byKey.size;
  }
}
