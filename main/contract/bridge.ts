import type { ChannelRequest, ChannelResponse, EventPayload } from './channels.ts';
import type { ChannelName, EventName } from './names.ts';
import type { Result } from './result.ts';

/**
 * What the renderer talks to: `window.querydesk` from the preload in Electron, or the
 * WebSocket bridge in the browser host. Nothing else of main is reachable from the renderer.
 */
export interface QuerydeskBridge {
  invoke<C extends ChannelName>(channel: C, payload: ChannelRequest<C>): Promise<Result<ChannelResponse<C>>>;
  /** Returns a function that removes the listener. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /**
   * Runs `listener` as the window is about to lose main: the window closing (Electron) or the
   * browser host stopping. What it invokes there and then is handled before main closes its
   * databases. Returns a function that removes the listener.
   */
  onStopping(listener: () => void): () => void;
}
