// The browser host carries the contract over one WebSocket instead of Electron IPC.
// The page is opened as http://127.0.0.1:<port>/#token=<token>; the socket connects to
// ws://127.0.0.1:<port>/ws?token=<token> and is refused without the right token and origin.

export const WS_PATH = '/ws';

export type ClientMessage = { type: 'invoke'; id: number; channel: string; payload: unknown };

export type ServerMessage = { type: 'result'; id: number; result: unknown } | { type: 'event'; event: string; payload: unknown };
