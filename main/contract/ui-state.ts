import { z } from 'zod';
import { accountId } from './models.ts';

// What the window looked like, per account, kept by main so it comes back after a restart: the
// layout, the open tabs, each query's result view (filters, sort, hidden columns, chart). Each
// feature owns its keys and the shape of its value; main only checks the key and the size.

/** `layout`, `tabs`, `view:<queryId>`: lowercase, a feature's name first. */
export const uiKey = z
  .string()
  .regex(/^[a-z][a-z0-9_.:-]{0,119}$/, 'key must be lowercase letters, digits and _.:- starting with a letter, at most 120 characters');

export const UI_VALUE_MAX_CHARS = 256 * 1024;

export const uiValue = z
  .json()
  .refine((value) => JSON.stringify(value).length <= UI_VALUE_MAX_CHARS, { message: `value must be at most ${UI_VALUE_MAX_CHARS} characters as JSON` });

export const uiChannels = {
  /** The value last set under this key for this account; null when none was. */
  'ui:get': {
    request: z.object({ accountId, key: uiKey }).strict(),
    response: z.object({ value: uiValue.nullable() }),
  },
  /** Kept on disk before it answers; null removes the key. */
  'ui:set': {
    request: z.object({ accountId, key: uiKey, value: uiValue.nullable() }).strict(),
    response: z.object({}),
  },
};
