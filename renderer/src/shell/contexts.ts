import { createContext } from 'svelte';
import type { Editing } from '../editor/editing.svelte.ts';
import type { Freshness } from '../freshness/freshness.svelte.ts';
import type { Api } from '../lib/bridge.ts';
import type { Connection } from '../lib/connection.svelte.ts';
import type { LaterWrites } from '../lib/later-writes.ts';
import type { ParameterForms } from '../queries/parameter-forms.svelte.ts';
import type { Workspace } from '../queries/workspace.svelte.ts';
import type { ViewStore } from '../results/view-store.svelte.ts';
import type { RunHistory } from '../runs/run-history.svelte.ts';
import type { Runs } from '../runs/runs.svelte.ts';
import type { Settings } from '../settings/settings.svelte.ts';
import type { WindowState } from './window-state.ts';

// The window's state, one context per part: App provides them once, and a component reads the
// parts it uses itself (while it is made, like any context), instead of being handed them.

const [getApi, setApi] = createContext<Api>();
const [getConnection, setConnection] = createContext<Connection>();
const [getLaterWrites, setLaterWrites] = createContext<LaterWrites>();
const [getWorkspace, setWorkspace] = createContext<Workspace>();
const [getRuns, setRuns] = createContext<Runs>();
const [getEditing, setEditing] = createContext<Editing>();
const [getParameterForms, setParameterForms] = createContext<ParameterForms>();
const [getRunHistory, setRunHistory] = createContext<RunHistory>();
const [getViews, setViews] = createContext<ViewStore>();
const [getSettings, setSettings] = createContext<Settings>();
const [getFreshness, setFreshness] = createContext<Freshness>();

export { getApi, getConnection, getEditing, getParameterForms, getRunHistory, getRuns, getSettings, getViews, getWorkspace };
export { getFreshness, getLaterWrites };

/** Called by the root component, while it is made: every part, for all the components under it. */
export function provideWindowState(state: WindowState): void {
  setApi(state.api);
  setConnection(state.connection);
  setLaterWrites(state.laterWrites);
  setWorkspace(state.workspace);
  setRuns(state.runs);
  setEditing(state.editing);
  setParameterForms(state.parameterForms);
  setRunHistory(state.runHistory);
  setViews(state.views);
  setSettings(state.settings);
  setFreshness(state.freshness);
}
