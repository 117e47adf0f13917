/** An open query: a preview tab is replaced by the next preview, a pinned one stays. */
export interface Tab {
  /** The query's id, or a scratch tab's (negative: `isScratch`). */
  queryId: number;
  pinned: boolean;
}

export interface TabsState {
  tabs: Tab[];
  active: number | null;
}

/** What main answered under `tabs`, read as far as it fits. */
export function readTabsState(value: unknown): TabsState {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const tabs = Array.isArray(v.tabs)
    ? v.tabs.flatMap((t): Tab[] => {
        const tab = t as Partial<Tab> | null;
        return tab && Number.isSafeInteger(tab.queryId) && tab.queryId !== 0
          ? [{ queryId: tab.queryId as number, pinned: tab.pinned === true }]
          : [];
      })
    : [];
  const active = typeof v.active === 'number' && tabs.some((t) => t.queryId === v.active) ? v.active : (tabs[0]?.queryId ?? null);
  return { tabs, active };
}

/**
 * The open queries of the active account, in the order the user gave them, as VS Code keeps its
 * editors: a single click previews in the one reusable tab, a double click or an edit pins it.
 */
export class Tabs {
  items = $state.raw<Tab[]>([]);

  has(queryId: number): boolean {
    return this.items.some((t) => t.queryId === queryId);
  }

  /** Adds the query (in place of the preview tab when it is a preview itself). */
  open(queryId: number, pinned: boolean): void {
    const at = this.items.findIndex((t) => t.queryId === queryId);
    if (at >= 0) {
      if (pinned && !this.items[at]!.pinned) this.items = this.items.map((t, i) => (i === at ? { ...t, pinned: true } : t));
      return;
    }
    const tab = { queryId, pinned };
    const preview = pinned ? -1 : this.items.findIndex((t) => !t.pinned);
    this.items = preview >= 0 ? this.items.map((t, i) => (i === preview ? tab : t)) : [...this.items, tab];
  }

  pin(queryId: number): void {
    if (this.items.some((t) => t.queryId === queryId && !t.pinned)) this.open(queryId, true);
  }

  /** Answers the tab to show next: its right-hand neighbour, else the left one. */
  close(queryId: number): number | null {
    const at = this.items.findIndex((t) => t.queryId === queryId);
    if (at < 0) return null;
    this.items = this.items.filter((_, i) => i !== at);
    return (this.items[at] ?? this.items[at - 1])?.queryId ?? null;
  }

  move(queryId: number, toIndex: number): void {
    const from = this.items.findIndex((t) => t.queryId === queryId);
    if (from < 0) return;
    const next = [...this.items];
    const [tab] = next.splice(from, 1);
    next.splice(Math.max(0, Math.min(next.length, toIndex)), 0, tab!);
    this.items = next;
  }

  /** The tab `step` places away from `queryId`, wrapping around. */
  neighbour(queryId: number | null, step: number): number | null {
    if (this.items.length === 0) return null;
    const at = this.items.findIndex((t) => t.queryId === queryId);
    const next = (((at < 0 ? 0 : at + step) % this.items.length) + this.items.length) % this.items.length;
    return this.items[next]!.queryId;
  }

  replace(queryId: number, by: number): void {
    this.items = this.items.map((t) => (t.queryId === queryId ? { ...t, queryId: by } : t));
  }
}
