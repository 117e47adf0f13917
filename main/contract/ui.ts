import { z } from 'zod';
import { accountId } from './models.ts';
import { ChartSettings } from './result-models.ts';

// What the window looked like, per account, kept by main so it comes back after a restart: the
// layout, the open tabs, each query's result view (filters, sort, hidden columns, chart). Each
// feature owns its keys and the shape of its value; main only checks the key and the size.

/** `layout`, `tabs`, `view:<queryId>`: lowercase, a feature's name first. */
export const uiKey = z
  .string()
  .regex(/^[a-z][a-z0-9_.:-]{0,119}$/, 'key must be lowercase letters, digits and _.:- starting with a letter, at most 120 characters');

export const UI_VALUE_MAX_CHARS = 256 * 1024;

export const uiValue = z.json().refine((value) => JSON.stringify(value).length <= UI_VALUE_MAX_CHARS, {
  message: `value must be at most ${UI_VALUE_MAX_CHARS} characters as JSON`,
});

/**
 * A result view's chart settings are checked here, where they enter main: a chart drawn from a
 * restored view asks for exactly these columns and numbers.
 */
function checkView(request: { key: string; value: unknown }, context: z.RefinementCtx): void {
  if (!request.key.startsWith('view:') || typeof request.value !== 'object' || request.value === null) return;
  const chart = (request.value as { chart?: unknown }).chart;
  if (chart === undefined || chart === null) return;
  const checked = ChartSettings.safeParse(chart);
  for (const issue of checked.error?.issues ?? []) {
    context.addIssue({ code: 'custom', message: issue.message, path: ['value', 'chart', ...issue.path] });
  }
}

export const uiChannels = {
  /** The value last set under this key for this account; null when none was. */
  'ui:get': {
    request: z.object({ accountId, key: uiKey }).strict(),
    response: z.object({ value: uiValue.nullable() }),
  },
  /** Kept on disk before it answers; null removes the key. */
  'ui:set': {
    request: z.object({ accountId, key: uiKey, value: uiValue.nullable() }).strict().superRefine(checkView),
    response: z.object({}),
  },
} as const;
