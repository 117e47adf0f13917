import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Api } from '../../../../renderer/src/lib/bridge.ts';
import { LaterWrites } from '../../../../renderer/src/lib/later-writes.ts';
import { ViewStore } from '../../../../renderer/src/results/view-store.svelte.ts';

// A query's saved view goes to main: a chart drawn at once, so that a window closed right after
// keeps it; changes that come in streams once they pause.

function recordingApi() {
  const saved: unknown[] = [];
  const api = {
    invoke: (channel: string, payload: { value?: unknown }) => {
      if (channel === 'ui:set') saved.push(payload.value);
      return Promise.resolve({ ok: true, data: { value: null } });
    },
    on: () => () => {},
  } as unknown as Api;
  return { api, saved };
}

const CHART = { kind: 'bar', x: 'token', y: ['amount_usd'], aggregation: 'sum', groupBy: null, topN: 4 };

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('saved views', () => {
  it('save a chart drawn at once, with the rest of the view', () => {
    const { api, saved } = recordingApi();
    const views = new ViewStore(api, new LaterWrites());
    views.update('a1', 4, { typedFilters: "chain = 'base'" });
    views.update('a1', 4, { chart: CHART as never });
    expect(saved).toEqual([expect.objectContaining({ typedFilters: "chain = 'base'", chart: CHART })]);
    // the filter's own save, still pending, was the same view: it is not sent again
    vi.advanceTimersByTime(1_000);
    expect(saved).toHaveLength(1);
  });

  it('save other changes once they pause, the last one only', () => {
    const { api, saved } = recordingApi();
    const views = new ViewStore(api, new LaterWrites());
    views.update('a1', 4, { editorHeight: 100 });
    vi.advanceTimersByTime(300);
    views.update('a1', 4, { editorHeight: 200 });
    vi.advanceTimersByTime(300);
    expect(saved).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(saved).toEqual([expect.objectContaining({ editorHeight: 200 })]);
    expect(views.get('a1', 4)?.editorHeight).toBe(200);
  });

  it("read a query's decimals and chain back, leaving out what no longer fits", async () => {
    const stored = { decimals: { amount: 18, fee: 0, odd: 2.5, huge: 400, usdc: 6 }, defaultChain: 'base' };
    const api = { invoke: () => Promise.resolve({ ok: true, data: { value: stored } }), on: () => () => {} } as unknown as Api;
    const view = await new ViewStore(api, new LaterWrites()).load('a1', 4);
    expect(view.decimals).toEqual({ amount: 18, usdc: 6 });
    expect(view.defaultChain).toBe('base');
    const odd = {
      invoke: () => Promise.resolve({ ok: true, data: { value: { decimals: 'x', defaultChain: 'Not A Chain' } } }),
      on: () => () => {},
    } as unknown as Api;
    expect(await new ViewStore(odd, new LaterWrites()).load('a1', 4)).toMatchObject({ decimals: {}, defaultChain: null });
  });
});
