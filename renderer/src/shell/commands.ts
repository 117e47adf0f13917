import { CLOSE_TAB_KEYS, NEW_SQL_KEYS, PALETTE_KEYS, RUN_KEYS, SAVE_KEYS, SETTINGS_KEYS, SHORTCUTS_KEYS } from '../lib/shortcuts.ts';

/** An action of the app, as the command palette and the shortcuts sheet list it. */
export interface Command {
  title: string;
  /** The shortcut, as the platform writes it. */
  keys?: string;
  run: () => void;
}

export interface AppActions {
  newQuery: () => void;
  newSql: () => void;
  openById: () => void;
  run: () => void;
  cancelRun: () => void;
  save: () => void;
  closeTab: () => void;
  nextTab: () => void;
  previousTab: () => void;
  tryAgain: () => void;
  queriesPage: () => void;
  tablesPage: () => void;
  accounts: () => void;
  settings: () => void;
  palette: () => void;
  shortcuts: () => void;
}

/** Every action of the window, each with its shortcut when it has one. */
export function appCommands(a: AppActions): Command[] {
  return [
    { title: 'Run the query', keys: RUN_KEYS, run: a.run },
    { title: 'Cancel the run', keys: 'Esc', run: a.cancelRun },
    { title: 'Save the query', keys: SAVE_KEYS, run: a.save },
    { title: 'New query…', run: a.newQuery },
    { title: 'New SQL (a scratch tab, not a query)', keys: NEW_SQL_KEYS, run: a.newSql },
    { title: 'Open a query by id…', run: a.openById },
    { title: 'Close the tab', keys: CLOSE_TAB_KEYS, run: a.closeTab },
    { title: 'Next tab', keys: 'Ctrl+PageDown', run: a.nextTab },
    { title: 'Previous tab', keys: 'Ctrl+PageUp', run: a.previousTab },
    { title: 'Try the service again', run: a.tryAgain },
    { title: 'Go to Queries', run: a.queriesPage },
    { title: 'Go to Tables', run: a.tablesPage },
    { title: 'Manage accounts…', run: a.accounts },
    { title: 'Settings…', keys: SETTINGS_KEYS, run: a.settings },
    { title: 'Command palette', keys: PALETTE_KEYS, run: a.palette },
    { title: 'Keyboard shortcuts', keys: SHORTCUTS_KEYS, run: a.shortcuts },
  ];
}
