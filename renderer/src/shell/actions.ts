// Every action of the app, in one list: the command palette lists them all, the shortcuts sheet
// those with keys, and menus take their names from here, so a new action is added once. Which
// part of the window runs an action, and whether it applies now, is said by that part
// (action-handlers.svelte.ts).
import {
  CLOSE_TAB_KEYS,
  HISTORY_KEYS,
  NEW_SQL_KEYS,
  PALETTE_KEYS,
  RUN_KEYS,
  SAVE_KEYS,
  SETTINGS_KEYS,
  SHORTCUTS_KEYS,
} from '../lib/shortcuts.ts';

export interface Action {
  title: string;
  /** The shortcut, as the platform writes it. */
  keys?: string;
  /** Other words a person may look for it by. */
  words?: string;
  /** 'tab': it acts on the query or result shown, so it applies on the Queries page only. */
  scope: 'app' | 'tab';
}

export const ACTIONS = {
  run: { title: 'Run the query', keys: RUN_KEYS, scope: 'tab' },
  cancelRun: { title: 'Cancel the run', keys: 'Esc', words: 'stop', scope: 'tab' },
  save: { title: 'Save the query', keys: SAVE_KEYS, scope: 'tab' },
  saveAsQuery: { title: 'Save as query…', words: 'scratch', scope: 'tab' },
  newQuery: { title: 'New query…', scope: 'app' },
  newSql: { title: 'New SQL (a scratch tab, not a query)', keys: NEW_SQL_KEYS, scope: 'app' },
  openById: { title: 'Open a query by id…', scope: 'app' },
  history: { title: 'Run history…', keys: HISTORY_KEYS, words: 'past runs executions search find', scope: 'app' },
  closeTab: { title: 'Close the tab', keys: CLOSE_TAB_KEYS, scope: 'tab' },
  nextTab: { title: 'Next tab', keys: 'Ctrl+PageDown', scope: 'tab' },
  previousTab: { title: 'Previous tab', keys: 'Ctrl+PageUp', scope: 'tab' },
  details: { title: 'Edit name, description and tags…', words: 'rename tag', scope: 'tab' },
  parameters: { title: 'Parameters…', scope: 'tab' },
  archive: { title: 'Archive', scope: 'tab' },
  unarchive: { title: 'Unarchive', scope: 'tab' },
  makePrivate: { title: 'Make private', scope: 'tab' },
  makePublic: { title: 'Make public', scope: 'tab' },
  compareRuns: { title: 'Compare runs…', words: 'diff', scope: 'tab' },
  showRows: { title: 'Show all rows', words: 'grid result', scope: 'tab' },
  showSample: { title: 'Show a sample of the rows', scope: 'tab' },
  showChart: { title: 'Chart the result', scope: 'tab' },
  showProfile: { title: 'Profile the columns', scope: 'tab' },
  showPivot: { title: 'Pivot the result', words: 'group subtotal crosstab', scope: 'tab' },
  columns: { title: 'Columns to show…', words: 'hide', scope: 'tab' },
  export: { title: 'Export the result…', words: 'csv json parquet download', scope: 'tab' },
  tryAgain: { title: 'Try the service again', scope: 'app' },
  queriesPage: { title: 'Go to Queries', scope: 'app' },
  tablesPage: { title: 'Go to Tables', words: 'upload', scope: 'app' },
  accounts: { title: 'Manage accounts…', scope: 'app' },
  settings: { title: 'Settings…', keys: SETTINGS_KEYS, words: 'preferences', scope: 'app' },
  palette: { title: 'Command palette', keys: PALETTE_KEYS, scope: 'app' },
  shortcuts: { title: 'Keyboard shortcuts', keys: SHORTCUTS_KEYS, words: 'help keys', scope: 'app' },
  schedules: { title: 'Schedules…', words: 'refresh every daily timer notify', scope: 'app' },
  scheduleQuery: { title: 'Schedule refreshes…', words: 'every daily timer notify', scope: 'tab' },
  runAgain: { title: 'Run again, not using the latest result', keys: `Shift+${RUN_KEYS}`, words: 'fresh max age', scope: 'tab' },
  maxAge: { title: 'Max age of results…', words: 'freshness reuse latest cache', scope: 'tab' },
  pinResult: { title: 'Pin the result', words: 'keep cache expire', scope: 'tab' },
  unpinResult: { title: 'Unpin the result', words: 'cache', scope: 'tab' },
  versions: { title: 'Versions of the query…', words: 'history diff compare restore earlier', scope: 'tab' },
  usage: { title: 'Usage and costs…', words: 'credits datapoints billing spent month', scope: 'app' },
  newLocalSql: { title: 'New local SQL (over cached results, offline)', words: 'duckdb join cache offline scratch', scope: 'app' },
} as const satisfies Record<string, Action>;

export type ActionId = keyof typeof ACTIONS;

export const ACTION_IDS = Object.keys(ACTIONS) as ActionId[];

/** An action as the palette shows it: runnable now, or not (and then greyed out). */
export interface Command extends Action {
  id: ActionId;
  run: (() => void) | null;
}

/** Whether the text typed in the palette finds the command: by its title or its other words. */
export function matches(command: Action, needle: string): boolean {
  const wanted = needle.trim().toLocaleLowerCase();
  return `${command.title} ${'words' in command ? command.words : ''}`.toLocaleLowerCase().includes(wanted);
}
