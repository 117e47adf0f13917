import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { ExportProgress } from '../../contract/index.ts';
import type { ExportTarget } from './destination.ts';
import { ExportRun } from './export-run.ts';
import type { ExportSource } from './export-sources.ts';

// Exports running in the background, each with its progress (see export-run.ts), to be cancelled.
// Memory stays flat whatever the size, and a format only the cache can write waits for the
// result's download into the cache first.

export interface ExportRuns {
  newId(): string;
  run(exportId: string, source: ExportSource, target: ExportTarget): void;
  cancel(exportId: string): boolean;
  dispose(): Promise<void>;
}

/** `scratchDir` holds a cached result's file while it is passed on to a download; emptied at start. */
export function createExportRuns(options: { emit: (progress: ExportProgress) => void; scratchDir: string }): ExportRuns {
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  rmSync(options.scratchDir, { recursive: true, force: true });
  return {
    newId: () => randomUUID(),
    run(exportId, source, target) {
      const controller = new AbortController();
      const done = new ExportRun(exportId, source, target, controller.signal, options).run().finally(() => running.delete(exportId));
      running.set(exportId, { controller, done });
    },
    cancel(exportId) {
      const entry = running.get(exportId);
      entry?.controller.abort();
      return entry !== undefined;
    },
    async dispose() {
      for (const entry of running.values()) entry.controller.abort();
      await Promise.all([...running.values()].map((e) => e.done));
    },
  };
}
