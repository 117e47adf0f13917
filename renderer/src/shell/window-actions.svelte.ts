import { substitute, type EditorSelection } from '../editor/substitution.ts';
import { useLatest } from '../freshness/use-latest.ts';
import { isModified } from '../lib/shortcuts.ts';
import { isLocalSql, isScratch, SCRATCH_TEMPLATE } from '../queries/scratch.svelte.ts';
import type { Run } from '../runs/run.svelte.ts';
import { actionHandlers } from './action-handlers.svelte.ts';
import type { WindowState } from './window-state.ts';

export type WindowDialog = 'accounts' | 'new' | 'open' | 'settings' | 'palette' | 'shortcuts' | 'history' | 'usage';

/** The parts of the window's state its actions use. */
export type WindowParts = Pick<WindowState, 'workspace' | 'runs' | 'editing' | 'parameterForms' | 'runHistory' | 'settings' | 'freshness'>;

/** A run going for longer than this is asked about before Escape cancels it. */
const CONFIRM_CANCEL_AFTER_MS = 10_000;

/**
 * What the window does on its own: run and close the tab in front, cancel its run, switch tabs,
 * and which page and dialog are shown; the window's keys and actions come here.
 */
export class WindowActions {
  page = $state<'queries' | 'tables'>('queries');
  dialog = $state<WindowDialog | null>(null);
  /** A tab with unsaved changes asked to close: the question is on screen. */
  closing = $state<number | null>(null);
  /** A scratch tab whose SQL is being saved as a query. */
  savingScratch = $state<number | null>(null);
  /** A long run Escape would cancel, waiting for the user to confirm. */
  stopping = $state<Run | null>(null);
  readonly #parts: WindowParts;

  constructor(parts: WindowParts) {
    this.#parts = parts;
  }

  openSettings = (): void => {
    void this.#parts.settings.load();
    this.dialog = 'settings';
  };

  newSql = (): void => {
    this.page = 'queries';
    void this.#parts.workspace.newScratch();
  };

  newLocalSql = (): void => {
    this.page = 'queries';
    void this.#parts.workspace.newLocalSql();
  };

  /** A local SQL tab's SQL, run over the cache on this computer; its answer kept with the tab. */
  runLocalSql = async (tabId: number): Promise<void> => {
    const { workspace } = this.#parts;
    const accountId = workspace.account?.id;
    const sql = accountId ? workspace.scratches.stateOf(accountId, tabId)?.sql : undefined;
    if (!accountId || !sql?.trim()) return;
    const executionId = await workspace.localSql.run(accountId, tabId, sql);
    if (executionId) workspace.scratches.ran(accountId, tabId, executionId);
    await workspace.localSql.loadSources(accountId);
  };

  /**
   * Runs what the editor shows: the query as saved when its text is unchanged, else the edited
   * text (or only `selection`) through /sql/execute, without saving it. The query as saved, with a
   * max age, uses the service's latest result of its values when that is young enough, unless
   * `again` (Shift+Run) says to run it anyway.
   */
  run = async (
    queryId: number | null = this.#parts.workspace.selectedId,
    selection: EditorSelection | null = null,
    again = false,
  ): Promise<void> => {
    const { workspace, runs, editing, parameterForms, runHistory } = this.#parts;
    const accountId = workspace.account?.id;
    if (!accountId || queryId === null) return;
    if (isLocalSql(queryId)) return this.runLocalSql(queryId);
    if (isScratch(queryId)) return this.#runScratch(accountId, queryId, selection);
    // Before the detail arrives (Ctrl+Enter right after selecting) the saved query runs with the service's defaults.
    const query = workspace.detailOf(queryId);
    if (!query) return void (await runs.start(accountId, queryId));
    const values = parameterForms.formFor(accountId, query, editing.drafts.values(accountId, queryId)).take();
    if (values === null) return;
    const text = selection?.text ?? editing.sqlOf(accountId, query);
    const ran = substitute(text, values, selection?.start);
    const asText = selection !== null || text !== editing.savedSql(query);
    if (!asText && !again && (await useLatest(this.#parts, accountId, queryId, values))) return;
    await runs.start(accountId, queryId, values, ran, asText);
    await runHistory.refresh(accountId);
  };

  /** A scratch tab's SQL (or only `selection`), as it is: it has no parameters. */
  async #runScratch(accountId: string, tabId: number, selection: EditorSelection | null): Promise<void> {
    const { workspace, runs, runHistory } = this.#parts;
    const text = selection?.text ?? workspace.scratches.stateOf(accountId, tabId)?.sql ?? '';
    if (!text.trim()) return;
    await runs.start(accountId, tabId, {}, substitute(text, {}, selection?.start), true);
    const executionId = runs.latest(accountId, tabId)?.update?.executionId;
    if (executionId) workspace.scratches.ran(accountId, tabId, executionId);
    await runHistory.refresh(accountId);
  }

  /** Closes a tab, or asks first when it holds unsaved changes. */
  closeTab = (queryId: number): void => {
    const { workspace, editing } = this.#parts;
    const account = workspace.account;
    if (isLocalSql(queryId)) return workspace.close(queryId);
    if (isScratch(queryId)) {
      const sql = account ? workspace.scratches.stateOf(account.id, queryId)?.sql : undefined;
      if (sql?.trim() && sql !== SCRATCH_TEMPLATE) this.closing = queryId;
      else workspace.close(queryId);
      return;
    }
    const query = workspace.detailOf(queryId);
    if (account && query && editing.isDirty(account.id, query)) this.closing = queryId;
    else workspace.close(queryId);
  };

  /** Cancels the active tab's run (Escape); one running for more than 10 s is asked about first. Answers whether one was running. */
  cancelActiveRun(): boolean {
    const { workspace, runs } = this.#parts;
    const active = this.#activeRun();
    if (!active?.isActive) return false;
    if (isLocalSql(active.queryId)) void workspace.localSql.cancel(active);
    else if (active.elapsedAt(performance.now()) > CONFIRM_CANCEL_AFTER_MS) this.stopping = active;
    else void runs.cancel(active);
    return true;
  }

  /** The run shown in the tab in front: a local SQL tab's own, or the service's. */
  #activeRun(): Run | null {
    const { workspace, runs } = this.#parts;
    const tab = workspace.selectedId;
    const accountId = workspace.account?.id;
    if (tab !== null && accountId && isLocalSql(tab)) return workspace.localSql.latest(accountId, tab);
    return runs.latest(accountId, tab);
  }

  switchTab(step: number): void {
    const { workspace } = this.#parts;
    const next = workspace.tabs.neighbour(workspace.selectedId, step);
    if (next !== null) void workspace.select(next);
  }

  /** Offers the window's own actions, for the tab in front (in an `$effect`); answers how to take them back. */
  offer(): () => void {
    const { workspace, editing } = this.#parts;
    const tab = workspace.selectedId;
    const scratch = tab !== null && isScratch(tab);
    const localSql = tab !== null && isLocalSql(tab);
    const active = this.#activeRun()?.isActive ?? false;
    const manyTabs = workspace.tabs.items.length > 1;
    return actionHandlers.offer({
      newQuery: () => (this.dialog = 'new'),
      newSql: this.newSql,
      newLocalSql: this.newLocalSql,
      openById: () => (this.dialog = 'open'),
      history: () => (this.dialog = 'history'),
      run: tab !== null ? () => void this.run() : null,
      runAgain: tab !== null && !scratch ? () => void this.run(tab, null, true) : null,
      cancelRun: active ? () => void this.cancelActiveRun() : null,
      save: tab !== null && !scratch ? () => void editing.save() : null,
      saveAsQuery: scratch && !localSql ? () => (this.savingScratch = tab) : null,
      closeTab: tab !== null ? () => this.closeTab(tab) : null,
      nextTab: manyTabs ? () => this.switchTab(1) : null,
      previousTab: manyTabs ? () => this.switchTab(-1) : null,
      tryAgain: () => void workspace.refresh(),
      queriesPage: () => (this.page = 'queries'),
      tablesPage: () => (this.page = 'tables'),
      accounts: () => (this.dialog = 'accounts'),
      settings: this.openSettings,
      palette: () => (this.dialog = 'palette'),
      shortcuts: () => (this.dialog = 'shortcuts'),
      usage: () => (this.dialog = 'usage'),
    });
  }

  /** Window-wide keys that open something, whatever page is shown. */
  #opener(event: KeyboardEvent): (() => void) | null {
    if (event.defaultPrevented || this.dialog !== null) return null;
    // F1, not Ctrl+/: that one comments lines out in the editor, as in other editors
    if (event.key === 'F1' && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey)
      return () => (this.dialog = 'shortcuts');
    if (!isModified(event)) return null;
    const key = event.key.toLowerCase();
    if (key === ',') return this.openSettings;
    if (key === 'n' && !event.shiftKey) return this.newSql;
    // the browser host's page would reload on Ctrl+R: the history opens instead, as in shells
    if (key === 'r' && !event.shiftKey) return () => (this.dialog = 'history');
    if (key === 'k' || (key === 'p' && event.shiftKey)) return () => (this.dialog = 'palette');
    return null;
  }

  /** The window's keys (a key the page or a dialog handled is left alone). */
  onkeydown = (event: KeyboardEvent): void => {
    const open = this.#opener(event);
    if (open) {
      event.preventDefault();
      open();
      return;
    }
    const { workspace, editing } = this.#parts;
    if (event.defaultPrevented || this.dialog !== null || this.closing !== null || this.stopping !== null || this.page !== 'queries')
      return;
    if (event.key === 'Escape' && !isModified(event)) {
      if (this.cancelActiveRun()) event.preventDefault();
      return;
    }
    // Ctrl+Tab is Control on every system, as in browsers and VS Code.
    if (event.ctrlKey && (event.key === 'Tab' || event.key === 'PageDown' || event.key === 'PageUp')) {
      event.preventDefault();
      this.switchTab(event.key === 'PageUp' || (event.key === 'Tab' && event.shiftKey) ? -1 : 1);
      return;
    }
    if (!isModified(event)) return;
    const key = event.key.toLowerCase();
    if (event.key === 'Enter') {
      event.preventDefault();
      void this.run(undefined, null, event.shiftKey);
    } else if (key === 's') {
      event.preventDefault();
      void editing.save();
    } else if (key === 'w' && workspace.selectedId !== null) {
      event.preventDefault();
      this.closeTab(workspace.selectedId);
    }
  };
}
