import type { MessageBoxOptions } from 'electron';

// The system message boxes the desktop host shows, as plain options, so their words are read by
// the same test as every other message of the app.

export function updateReadyBox(version: string): MessageBoxOptions {
  return {
    type: 'info',
    buttons: ['Install when I quit', 'Not now'],
    defaultId: 0,
    cancelId: 1,
    message: `Querydesk ${version} is ready to install.`,
    detail: 'It was downloaded in the background. It is installed when you quit Querydesk; the next start opens the new version.',
  };
}

export function noSuchAccountBox(name: string, queryId: number): MessageBoxOptions {
  return {
    type: 'warning',
    message: `No account is named “${name}”.`,
    detail: `The link asked for query ${queryId} in an account this app does not have. Add it under Accounts, then open the link again.`,
  };
}
