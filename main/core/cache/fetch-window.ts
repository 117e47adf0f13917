// How many pages of a download are asked for at once. `min` pages keep the service busy on every core
// it has while a page is made, which is all a nearby service needs; a link adds its round trip,
// during which the service and the line would stand idle: so as many pages more as arrive in one
// round trip at the rate they arrive now. The bounds were chosen by timing downloads with the
// service beside the app and over a slow link (the figures are in bench/RESULTS.md).

export interface WindowOptions {
  min: number;
  max: number;
  /** A request's round trip to the service without work on its side, measured before the download. */
  roundTripMs: number;
}

export interface FetchWindow {
  size(): number;
  /** A page arrived whole at `at` (milliseconds, performance.now()). */
  arrived(at: number): void;
}

/** The rate is that of the last pages: early pages came in when fewer were asked for at once. */
const RATE_PAGES = 8;

export function createFetchWindow(options: WindowOptions): FetchWindow {
  const arrivals: number[] = [];
  return {
    size() {
      const spanMs = arrivals.length < 2 ? 0 : arrivals.at(-1)! - arrivals[0]!;
      if (spanMs <= 0) return options.min;
      const extra = Math.round((options.roundTripMs * (arrivals.length - 1)) / spanMs);
      return Math.max(options.min, Math.min(options.max, options.min + extra));
    },
    arrived(at) {
      arrivals.push(at);
      if (arrivals.length > RATE_PAGES) arrivals.shift();
    },
  };
}
