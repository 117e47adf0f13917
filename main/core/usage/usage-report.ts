import { estimateCost, type UsageFigures, type UsageRates, type UsageReport } from '../../contract/index.ts';
import { localDay } from './local-day.ts';
import type { UsageEvent } from './usage-event.ts';

// The usage page's figures: one account's events in one month of the computer's local time, added
// up by day and by query, with the cost the account's rates give them. The events are added up as
// they are read (and as they are written after), so a month's report adds a few hundred sums, and
// the month's tens of thousands of events are not kept in memory.

export interface UsageReportRequest {
  accountId: string;
  /** `YYYY-MM`, local time. */
  month: string;
  rates: UsageRates;
  skipped: number;
  /** Other months the record holds. */
  months: readonly string[];
  /** A query's name as the app last knew it. */
  nameOf: (queryId: number) => string | null;
  now: Date;
}

type Sums = Omit<UsageFigures, 'cost'>;

/** A read or download whose query neither the service nor its execution said. */
const UNNAMED = -1;

function add(sums: Map<string | number, Sums>, key: string | number, from: Sums): void {
  let figures = sums.get(key);
  if (figures === undefined) sums.set(key, (figures = { executions: 0, datapoints: 0, bytes: 0 }));
  figures.executions += from.executions;
  figures.datapoints += from.datapoints;
  figures.bytes += from.bytes;
}

function queryName(queryId: number, nameOf: (queryId: number) => string | null): string {
  if (queryId === 0) return 'SQL of no saved query';
  if (queryId === UNNAMED) return 'Runs the service did not name';
  return nameOf(queryId) ?? `Query #${queryId}`;
}

/**
 * The local day of each instant, found by comparing its text with the day's local midnights (the
 * record's times are all `toISOString`'s, which sort as the instants do) rather than by a calendar
 * lookup per event. Events come in the order they happened, so the day found last is nearly always
 * the next one's too.
 */
class LocalCalendar {
  #from = '~';
  #to = '';
  #day = '';

  dayOf(at: string): string {
    if (at < this.#from || at >= this.#to) {
      const time = new Date(at);
      this.#from = new Date(time.getFullYear(), time.getMonth(), time.getDate()).toISOString();
      this.#to = new Date(time.getFullYear(), time.getMonth(), time.getDate() + 1).toISOString();
      this.#day = localDay(time);
    }
    return this.#day;
  }
}

interface AccountSums {
  /** Local day `YYYY-MM-DD`, then query, then what was asked that day of that query. */
  days: Map<string, Map<number, Sums>>;
  /** Each execution's query, for its reads that did not say theirs. */
  started: Map<string, number>;
}

/** One file of the usage record added up, per account, by local day and query. */
export class UsageSums {
  readonly #accounts = new Map<string, AccountSums>();
  readonly #calendar = new LocalCalendar();

  add(event: UsageEvent): void {
    let account = this.#accounts.get(event.accountId);
    if (account === undefined) this.#accounts.set(event.accountId, (account = { days: new Map(), started: new Map() }));
    if (event.kind === 'execution' && event.queryId !== null) account.started.set(event.executionId, event.queryId);
    const day = this.#calendar.dayOf(event.at);
    let queries = account.days.get(day);
    if (queries === undefined) account.days.set(day, (queries = new Map()));
    const queryId = event.queryId ?? account.started.get(event.executionId) ?? UNNAMED;
    add(queries, queryId, { executions: event.kind === 'execution' ? 1 : 0, datapoints: event.datapoints, bytes: event.bytes });
  }

  report(request: UsageReportRequest): UsageReport {
    const { month, rates } = request;
    const months = new Set([localDay(request.now).slice(0, 7), month, ...request.months]);
    const days = new Map<string | number, Sums>();
    const queries = new Map<string | number, Sums>();
    const total = new Map<string | number, Sums>();
    for (const [day, dayQueries] of this.#accounts.get(request.accountId)?.days ?? []) {
      months.add(day.slice(0, 7));
      if (!day.startsWith(month)) continue;
      for (const [queryId, sums] of dayQueries) {
        add(days, day, sums);
        add(queries, queryId, sums);
        add(total, 0, sums);
      }
    }
    const priced = (sums: Sums): UsageFigures => ({ ...sums, cost: estimateCost(rates, sums) });
    return {
      month,
      months: [...months].sort().reverse(),
      byDay: [...days].sort(([a], [b]) => String(a).localeCompare(String(b))).map(([day, sums]) => ({ day: String(day), ...priced(sums) })),
      byQuery: [...queries]
        .map(([queryId, sums]) => ({ queryId: Number(queryId), name: queryName(Number(queryId), request.nameOf), ...priced(sums) }))
        .sort((a, b) => b.datapoints - a.datapoints || b.executions - a.executions || a.queryId - b.queryId),
      total: priced(total.get(0) ?? { executions: 0, datapoints: 0, bytes: 0 }),
      rates,
      skipped: request.skipped,
    };
  }
}
