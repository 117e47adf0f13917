const isMac = /Mac|iPhone|iPad/.test(navigator.platform);

/** Key labels as the platform writes them. */
export const RUN_KEYS = isMac ? '⌘↵' : 'Ctrl+↵';
export const SAVE_KEYS = isMac ? '⌘S' : 'Ctrl+S';
export const SETTINGS_KEYS = isMac ? '⌘,' : 'Ctrl+,';

export function isModified(event: KeyboardEvent): boolean {
  return isMac ? event.metaKey : event.ctrlKey;
}
