import { basename, join } from 'node:path';
import { app, dialog, type BrowserWindow } from 'electron';
import { EXPORT_FORMATS } from '../contract/index.ts';
import { fileTarget, type ExportDestinations } from '../core/export/destination.ts';

// Exports in the Electron host go to a file the user picks in the system's save dialog, opened
// over the app window; closing the dialog declines the export.

/** `folder`: where the dialog opens, from Settings; null for the Downloads folder. */
export function saveDialogDestinations(getWindow: () => BrowserWindow | null, folder: () => string | null): ExportDestinations {
  return {
    async choose(exportId, suggestedName, format) {
      const { label, extension } = EXPORT_FORMATS[format];
      const options = {
        title: `Export ${label}`,
        // only a name is suggested, never a path the renderer chose
        defaultPath: join(folder() ?? app.getPath('downloads'), basename(suggestedName)),
        filters: [{ name: label, extensions: [extension] }],
        properties: ['createDirectory' as const, 'showOverwriteConfirmation' as const],
      };
      const window = getWindow();
      const chosen = window === null ? await dialog.showSaveDialog(options) : await dialog.showSaveDialog(window, options);
      if (chosen.canceled || !chosen.filePath) return null;
      return fileTarget(chosen.filePath, exportId);
    },
  };
}
