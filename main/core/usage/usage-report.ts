import { estimateCost, type UsageFigures, type UsageRates, type UsageReport } from '../../contract/index.ts';
import { localDay } from './local-day.ts';
import type { UsageEvent } from './usage-log.ts';

// The usage page's figures: one account's events in one month of the computer's local time, added
// up by day and by query, with the cost the account's rates give them.

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

const pad = (n: number) => String(n).padStart(2, '0');

function add(sums: Map<string | number, Sums>, key: string | number, event: UsageEvent): void {
  let figures = sums.get(key);
  if (figures === undefined) sums.set(key, (figures = { executions: 0, datapoints: 0, bytes: 0 }));
  if (event.kind === 'execution') figures.executions++;
  figures.datapoints += event.datapoints;
  figures.bytes += event.bytes;
}

/** A read's query: as the service said it, else as the execution it read was started for. */
function queryOf(event: UsageEvent, started: Map<string, number>): number | null {
  return event.queryId ?? started.get(event.executionId) ?? null;
}

function queryName(queryId: number, nameOf: (queryId: number) => string | null): string {
  if (queryId === 0) return 'SQL of no saved query';
  if (queryId < 0) return 'Runs the service did not name';
  return nameOf(queryId) ?? `Query #${queryId}`;
}

/**
 * The local month (and in the month asked for, the day) of each instant, found by comparing its
 * text with the month's local midnights (the record's times are all `toISOString`'s, which sort as
 * the instants do) rather than by a calendar lookup per event. Events come in the order they
 * happened, so the month found last is nearly always the next one's too.
 */
class LocalCalendar {
  #from = '~';
  #to = '';
  #month = '';

  monthOf(at: string): string {
    if (at < this.#from || at >= this.#to) {
      const time = new Date(at);
      this.#from = new Date(time.getFullYear(), time.getMonth(), 1).toISOString();
      this.#to = new Date(time.getFullYear(), time.getMonth() + 1, 1).toISOString();
      this.#month = localDay(time).slice(0, 7);
    }
    return this.#month;
  }
}

/** The local midnights of a `YYYY-MM` month and of the day after it ends, as ISO text. */
function midnights(month: string): string[] {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const days = new Date(year, monthNumber, 0).getDate();
  return Array.from({ length: days + 1 }, (_, day) => new Date(year, monthNumber - 1, day + 1).toISOString());
}

export function buildUsageReport(events: readonly UsageEvent[], request: UsageReportRequest): UsageReport {
  const { accountId, month, rates } = request;
  const months = new Set([localDay(request.now).slice(0, 7), month, ...request.months]);
  const calendar = new LocalCalendar();
  const dayStarts = midnights(month);
  const started = new Map<string, number>();
  const days = new Map<string | number, Sums>();
  const queries = new Map<string | number, Sums>();
  const total = new Map<string | number, Sums>();
  for (const event of events) {
    if (event.accountId !== accountId) continue;
    if (event.kind === 'execution' && event.queryId !== null) started.set(event.executionId, event.queryId);
    const eventMonth = calendar.monthOf(event.at);
    months.add(eventMonth);
    if (eventMonth !== month) continue;
    let day = 0;
    while (event.at >= dayStarts[day + 1]!) day++;
    add(days, `${month}-${pad(day + 1)}`, event);
    add(queries, queryOf(event, started) ?? -1, event);
    add(total, 0, event);
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
