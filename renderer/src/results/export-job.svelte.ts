import type { ChannelRequest, ChannelResponse, ContractError, ExportProgress, Result } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';

type Delivery = { kind: 'file'; path: string } | { kind: 'download'; url: string };

/** Opens a same-origin download URL the way a click on a link would. */
function download(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * One export (CSV, Parquet or JSON lines, of a result or of its pivot's table): started in main, delivered as a file main writes (Electron) or a download the
 * page opens (browser host), followed through `results:exportProgress` until it ends.
 */
export class ExportJob {
  exportId = $state<string | null>(null);
  delivery = $state.raw<Delivery | null>(null);
  progress = $state.raw<ExportProgress | null>(null);
  error = $state.raw<ContractError | null>(null);
  readonly #api: Api;
  /** Progress can arrive before the answer that names the export. */
  #early = new Map<string, ExportProgress>();

  constructor(api: Api) {
    this.#api = api;
  }

  get isRunning(): boolean {
    const state = this.progress?.state;
    return (
      this.exportId !== null &&
      this.error === null &&
      (state === undefined || state === 'waiting' || state === 'caching' || state === 'running')
    );
  }

  /** Follows progress events; returns the unsubscribe. */
  listen(): () => void {
    return this.#api.on('results:exportProgress', (progress) => {
      if (progress.exportId === this.exportId) this.progress = progress;
      else this.#early.set(progress.exportId, progress);
    });
  }

  start(request: ChannelRequest<'results:export'>): Promise<void> {
    return this.#begin(() => this.#api.invoke('results:export', request), request.fileName ?? 'result.csv');
  }

  /** A pivot's table as shown. */
  startPivot(request: ChannelRequest<'results:exportPivot'>): Promise<void> {
    return this.#begin(() => this.#api.invoke('results:exportPivot', request), request.fileName ?? 'pivot.parquet');
  }

  async #begin(invoke: () => Promise<Result<ChannelResponse<'results:export'>>>, fileName: string): Promise<void> {
    this.exportId = null;
    this.delivery = null;
    this.progress = null;
    this.error = null;
    this.#early.clear();
    const answer = await invoke();
    if (!answer.ok) {
      // closing the save dialog is no failure worth a notice
      if (answer.error.code !== 'cancelled') this.error = answer.error;
      return;
    }
    this.exportId = answer.data.exportId;
    this.delivery = answer.data.delivery;
    this.progress = this.#early.get(answer.data.exportId) ?? null;
    this.#early.clear();
    if (answer.data.delivery.kind === 'download') download(answer.data.delivery.url, fileName);
  }

  async cancel(): Promise<void> {
    if (this.exportId) await this.#api.invoke('results:exportCancel', { exportId: this.exportId });
  }
}
