import { createSubscriber } from 'svelte/reactivity';

// One clock for every "ran 3 h ago" on screen: a single timer, running only while something reads
// the time, instead of one per result or per query in the list.

const TICK_MS = 30_000;

let now = Date.now();
const subscribe = createSubscriber((update) => {
  now = Date.now();
  const timer = setInterval(() => {
    now = Date.now();
    update();
  }, TICK_MS);
  return () => clearInterval(timer);
});

/** The time now, to the last tick; read inside an effect or template, it updates them on each tick. */
export function clockNow(): number {
  subscribe();
  return now;
}
