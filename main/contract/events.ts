import { z } from 'zod';
import { accountId, ExecutionUpdate } from './models.ts';
import type { EventName } from './names.ts';
import { CacheStatus, ExportProgress } from './results.ts';
import { UploadProgress } from './tables.ts';
import { workspaceEvents } from './workspace.ts';

// Events main sends to the renderer, unprompted.

export const events = {
  'execution:update': ExecutionUpdate,
  /** The user asked to see this execution from outside the window (a click on its desktop notification). */
  'execution:show': z.object({ accountId, executionId: z.string() }),
  /** A result download into the cache moved on, finished, failed or was cancelled. */
  'results:cacheStatus': CacheStatus,
  'results:exportProgress': ExportProgress,
  /** A table upload moved on, finished, failed or was cancelled. */
  'tables:uploadProgress': UploadProgress,
  ...workspaceEvents,
  /** A `querydesk://query/<id>` link was opened: show that query of that account. */
  'query:open': z.object({ accountId, queryId: z.number().int().positive() }),
} as const satisfies Record<EventName, z.ZodType>;

export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;
