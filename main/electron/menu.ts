import { Menu, type MenuItemConstructorOptions } from 'electron';

/** Standard roles only, so shortcuts, copy/paste and window handling behave as on every other app. */
export function installApplicationMenu(options: { isMac: boolean; withDevTools: boolean }): void {
  const view: MenuItemConstructorOptions[] = [
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  if (options.withDevTools) view.unshift({ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' });
  const template: MenuItemConstructorOptions[] = [
    ...(options.isMac ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
