// The browser host carries the contract over one WebSocket instead of Electron IPC.
// The page is opened as http://127.0.0.1:<port>/#token=<token>; the socket connects to
// ws://127.0.0.1:<port>/ws?token=<token> and is refused without the right token and origin.

export const WS_PATH = '/ws';

export type ClientMessage = { type: 'invoke'; id: number; channel: string; payload: unknown };

/**
 * `stopping`: the host is about to stop. The page sends what it still holds to be written, then
 * closes the socket; the host waits for that (a moment at most) before it closes its databases.
 */
export type ServerMessage =
  { type: 'result'; id: number; result: unknown } | { type: 'event'; event: string; payload: unknown } | { type: 'stopping' };
