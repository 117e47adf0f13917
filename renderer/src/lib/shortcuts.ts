const isMac = /Mac|iPhone|iPad/.test(navigator.platform);

/** Key labels as the platform writes them. */
export const RUN_KEYS = isMac ? '⌘↵' : 'Ctrl+↵';
export const SAVE_KEYS = isMac ? '⌘S' : 'Ctrl+S';
export const SETTINGS_KEYS = isMac ? '⌘,' : 'Ctrl+,';
export const PALETTE_KEYS = isMac ? '⌘K' : 'Ctrl+K';
export const SHORTCUTS_KEYS = isMac ? '⌘/' : 'Ctrl+/';
export const CLOSE_TAB_KEYS = isMac ? '⌘W' : 'Ctrl+W';
export const NEW_SQL_KEYS = isMac ? '⌘N' : 'Ctrl+N';

export function isModified(event: KeyboardEvent): boolean {
  return isMac ? event.metaKey : event.ctrlKey;
}
