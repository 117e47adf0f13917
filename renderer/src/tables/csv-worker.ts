import Papa from 'papaparse';
import type { ParseRequest, WorkerMessage } from './csv-messages.ts';
import { CSV_PARSE_OPTIONS } from './csv-options.ts';
import { CsvSummary } from './csv-summary.ts';

// Reads a CSV file off the page's thread, streaming, so a file of any size keeps the window
// responsive and only the preview rows are held.

function post(message: WorkerMessage): void {
  self.postMessage(message);
}

self.onmessage = (event: MessageEvent<ParseRequest>) => {
  const { file, previewRows } = event.data;
  const summary = new CsvSummary(previewRows);
  Papa.parse<string[]>(file, {
    ...CSV_PARSE_OPTIONS,
    chunkSize: 4 * 1024 * 1024,
    chunk: (results) => {
      for (const row of results.data) summary.add(row);
      post({ kind: 'progress', rows: summary.rows });
    },
    complete: () => post({ kind: 'done', parsed: summary.result() }),
    error: (error) => post({ kind: 'error', message: error.message }),
  });
};
