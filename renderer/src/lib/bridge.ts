import type { QuerydeskBridge } from '$contract/index.ts';
import { WS_PATH } from '$contract/wire.ts';
import { Connection } from './connection.svelte.ts';
import { SocketBridge } from './socket-bridge.ts';
import { takeToken } from './token.ts';

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the browser host. */
    readonly querydesk?: QuerydeskBridge;
  }
}

/** Every call is `api.invoke(channel, payload)`, typed from the contract, answering a Result. */
export type Api = QuerydeskBridge;

/** An Api that answers every call with the same error, for a page that cannot reach main. */
function refusingApi(message: string): Api {
  return {
    invoke: () => Promise.resolve({ ok: false, error: { code: 'unreachable', message } }),
    on: () => () => {},
    onStopping: () => () => {},
  };
}

/** The preload's bridge in Electron; otherwise the browser host's WebSocket. */
export function createBridge(): { api: Api; connection: Connection } {
  const connection = new Connection();
  if (window.querydesk) {
    connection.update('open');
    return { api: window.querydesk, connection };
  }
  const token = takeToken();
  if (!token) {
    connection.update('missing-token');
    return { api: refusingApi('This page was opened without its access token: open it again from the link the app gave.'), connection };
  }
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const url = `${scheme}//${window.location.host}${WS_PATH}?token=${encodeURIComponent(token)}`;
  return { api: new SocketBridge(url, (status) => connection.update(status)), connection };
}
