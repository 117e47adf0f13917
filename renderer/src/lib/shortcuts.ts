const isMac = /Mac|iPhone|iPad/.test(navigator.platform);

/** Key labels as the platform writes them. */
export const RUN_KEYS = isMac ? '⌘↵' : 'Ctrl+↵';
export const SAVE_KEYS = isMac ? '⌘S' : 'Ctrl+S';
export const SETTINGS_KEYS = isMac ? '⌘,' : 'Ctrl+,';
export const PALETTE_KEYS = isMac ? '⌘K' : 'Ctrl+K';
export const SHORTCUTS_KEYS = 'F1';
export const CLOSE_TAB_KEYS = isMac ? '⌘W' : 'Ctrl+W';
export const NEW_SQL_KEYS = isMac ? '⌘N' : 'Ctrl+N';
export const HISTORY_KEYS = isMac ? '⌘R' : 'Ctrl+R';

/** Keys of a result grid's cells, which only the grid hears. */
export const GRID_KEYS: [string, string][] = [
  ['Stretch the block of cells', 'Shift+click, Shift+arrows'],
  ['Every cell of the view', isMac ? '⌘A' : 'Ctrl+A'],
  ['Copy the cells (tab-separated)', isMac ? '⌘C' : 'Ctrl+C'],
  ['Copy as CSV, Markdown, JSON or SQL', 'Right click, Shift+F10'],
];

export function isModified(event: { metaKey: boolean; ctrlKey: boolean }): boolean {
  return isMac ? event.metaKey : event.ctrlKey;
}
