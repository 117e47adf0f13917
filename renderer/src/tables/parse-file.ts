import type { ParsedCsv, ParseRequest, WorkerMessage } from './csv-messages.ts';

// Runs the CSV worker on one file; a new pick terminates the worker of the previous one.

export function parseCsvFile(
  file: File,
  previewRows: number,
  onRows: (rows: number) => void,
): { result: Promise<ParsedCsv>; stop: () => void } {
  const worker = new Worker(new URL('./csv-worker.ts', import.meta.url), { type: 'module' });
  const result = new Promise<ParsedCsv>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
      const message = event.data;
      if (message.kind === 'progress') return onRows(message.rows);
      worker.terminate();
      if (message.kind === 'done') resolve(message.parsed);
      else reject(new Error(message.message));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'The reader stopped without giving a reason.'));
    };
  });
  worker.postMessage({ file, previewRows } satisfies ParseRequest);
  return { result, stop: () => worker.terminate() };
}
