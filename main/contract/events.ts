import { z } from 'zod';
import type { EventName } from './names.ts';
import { ExecutionUpdate } from './models.ts';

// Events main sends to the renderer, unprompted.

export const events = {
  'execution:update': ExecutionUpdate,
} as const satisfies Record<EventName, z.ZodType>;

export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;
