import { Accounts } from '../accounts/accounts.svelte.ts';
import { Drafts } from '../editor/drafts.svelte.ts';
import { Editing } from '../editor/editing.svelte.ts';
import { Freshness } from '../freshness/freshness.svelte.ts';
import { createBridge, type Api } from '../lib/bridge.ts';
import type { Connection } from '../lib/connection.svelte.ts';
import { LaterWrites } from '../lib/later-writes.ts';
import { ParameterForms } from '../queries/parameter-forms.svelte.ts';
import { Workspace } from '../queries/workspace.svelte.ts';
import { ViewStore } from '../results/view-store.svelte.ts';
import { RunHistory } from '../runs/run-history.svelte.ts';
import { Runs } from '../runs/runs.svelte.ts';
import { Settings } from '../settings/settings.svelte.ts';

/** The state of one window, made once when it opens; its components reach each part through contexts.ts. */
export interface WindowState {
  api: Api;
  connection: Connection;
  laterWrites: LaterWrites;
  workspace: Workspace;
  runs: Runs;
  editing: Editing;
  parameterForms: ParameterForms;
  runHistory: RunHistory;
  views: ViewStore;
  settings: Settings;
  freshness: Freshness;
}

/** Every part, linked to main through the preload's bridge (or the browser host's socket). */
export function createWindowState(): WindowState {
  const laterWrites = new LaterWrites();
  const { api, connection } = createBridge();
  // What still waits to be written goes now: as the window closes or reloads, and as main stops.
  window.addEventListener('pagehide', () => laterWrites.flush());
  api.onStopping(() => laterWrites.flush());
  const workspace = new Workspace(api, new Accounts(api), new Drafts(api, laterWrites), laterWrites);
  return {
    api,
    connection,
    laterWrites,
    workspace,
    runs: new Runs(api),
    editing: new Editing(workspace),
    parameterForms: new ParameterForms(),
    runHistory: new RunHistory(api),
    views: new ViewStore(api, laterWrites),
    settings: new Settings(api),
    freshness: new Freshness(api),
  };
}
