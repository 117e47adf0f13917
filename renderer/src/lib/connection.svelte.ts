import type { LinkStatus } from './socket-bridge.ts';

/** `missing-token`: the page was opened without the link the browser host prints. */
export type ConnectionStatus = LinkStatus | 'missing-token';

/** How the renderer reaches main. In Electron the preload is always there: always `open`. */
export class Connection {
  status = $state<ConnectionStatus>('connecting');
  /** Bumped each time the link comes back after a loss, so views can refresh what they missed. */
  reconnects = $state(0);
  #lost = false;

  update(status: ConnectionStatus): void {
    if (status === 'retrying') this.#lost = true;
    if (status === 'open' && this.#lost) {
      this.#lost = false;
      this.reconnects += 1;
    }
    this.status = status;
  }
}
