import { describe, expect, it, vi } from 'vitest';
import type { Editing } from '../../../../renderer/src/editor/editing.svelte.ts';
import type { Freshness } from '../../../../renderer/src/freshness/freshness.svelte.ts';
import type { ParameterForms } from '../../../../renderer/src/queries/parameter-forms.svelte.ts';
import type { Workspace } from '../../../../renderer/src/queries/workspace.svelte.ts';
import type { RunHistory } from '../../../../renderer/src/runs/run-history.svelte.ts';
import type { Runs } from '../../../../renderer/src/runs/runs.svelte.ts';
import type { Settings } from '../../../../renderer/src/settings/settings.svelte.ts';
import { WindowActions } from '../../../../renderer/src/shell/window-actions.svelte.ts';

// The window's own keys: closing a tab asks first only when it holds unsaved changes, and Escape
// cancels the tab's run at once unless it has been going for long.

/** A window with one query tab (7) and one scratch tab (-1) open, with just enough of each part. */
function window(options: { dirty?: boolean; scratchSql?: string; runFor?: number | null } = {}) {
  const closed: number[] = [];
  const cancelled: unknown[] = [];
  const run = options.runFor == null ? null : { isActive: true, elapsedAt: (now: number) => now - (performance.now() - options.runFor!) };
  const workspace = {
    account: { id: 'a' },
    selectedId: 7,
    detailOf: (id: number) => (id === 7 ? { id: 7 } : null),
    close: (id: number) => closed.push(id),
    scratches: { stateOf: () => ({ sql: options.scratchSql ?? '', executionId: null }) },
    tabs: { items: [7, -1], neighbour: () => -1 },
    select: vi.fn(),
  } as unknown as Workspace;
  const runs = { latest: () => run, cancel: (r: unknown) => cancelled.push(r) } as unknown as Runs;
  const editing = { isDirty: () => options.dirty ?? false, save: vi.fn() } as unknown as Editing;
  const settings = { load: vi.fn() } as unknown as Settings;
  const actions = new WindowActions({
    workspace,
    runs,
    editing,
    parameterForms: {} as ParameterForms,
    runHistory: {} as RunHistory,
    settings,
    freshness: {} as Freshness,
  });
  return { actions, workspace, closed, cancelled };
}

const key = (init: KeyboardEventInit & { key: string }) =>
  ({
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    defaultPrevented: false,
    preventDefault: vi.fn(),
    ...init,
  }) as unknown as KeyboardEvent;

describe('the window actions', () => {
  it('closes a clean tab at once and asks about one with unsaved changes', () => {
    const clean = window();
    clean.actions.closeTab(7);
    expect(clean.closed).toEqual([7]);
    expect(clean.actions.closing).toBeNull();

    const dirty = window({ dirty: true });
    dirty.actions.closeTab(7);
    expect(dirty.closed).toEqual([]);
    expect(dirty.actions.closing).toBe(7);
  });

  it('asks before closing a scratch tab only when its SQL is not the template', () => {
    const template = window({ scratchSql: 'SELECT 1 AS answer' });
    template.actions.closeTab(-1);
    expect(template.closed).toEqual([-1]);

    const written = window({ scratchSql: 'SELECT 2' });
    written.actions.closeTab(-1);
    expect(written.actions.closing).toBe(-1);
  });

  it('cancels a short run on Escape and asks about a long one', () => {
    const short = window({ runFor: 1_000 });
    short.actions.onkeydown(key({ key: 'Escape' }));
    expect(short.cancelled).toHaveLength(1);
    expect(short.actions.stopping).toBeNull();

    const long = window({ runFor: 60_000 });
    long.actions.onkeydown(key({ key: 'Escape' }));
    expect(long.cancelled).toHaveLength(0);
    expect(long.actions.stopping).not.toBeNull();
  });

  it('opens the shortcuts on F1, and leaves the page keys alone while a dialog is open', () => {
    const { actions, closed } = window();
    actions.onkeydown(key({ key: 'F1' }));
    expect(actions.dialog).toBe('shortcuts');
    actions.onkeydown(key({ key: 'w', ctrlKey: true, metaKey: true }));
    expect(closed).toEqual([]);
    actions.dialog = null;
    actions.onkeydown(key({ key: 'w', ctrlKey: true, metaKey: true }));
    expect(closed).toEqual([7]);
  });

  it('switches to the neighbouring tab on Ctrl+Tab', () => {
    const { actions, workspace } = window();
    actions.onkeydown(key({ key: 'Tab', ctrlKey: true }));
    expect(workspace.select).toHaveBeenCalledWith(-1);
  });
});
