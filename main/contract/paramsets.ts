import { z } from 'zod';
import { accountId, ParameterValues, queryId } from './models.ts';

// Parameter sets: named values of one query's parameters ("last week, ethereum"), kept with the
// account's workspace on this computer. Picking one fills the parameter fields.

export const parameterSetName = z.string().trim().min(1).max(100);

export const ParameterSet = z.object({
  name: z.string(),
  values: ParameterValues,
  /** When it was saved or renamed (ISO). */
  savedAt: z.string(),
});
export type ParameterSet = z.infer<typeof ParameterSet>;

/** The query's sets, in the order they were made; `skipped`: lines of the file that could not be read. */
const SetList = z.object({ sets: z.array(ParameterSet), skipped: z.number().int().nonnegative() });

export const paramsetsChannels = {
  'paramsets:list': {
    request: z.object({ accountId, queryId }).strict(),
    response: SetList,
  },
  /** Saves the values under the name; a set of that name is replaced. */
  'paramsets:save': {
    request: z.object({ accountId, queryId, name: parameterSetName, values: ParameterValues }).strict(),
    response: SetList,
  },
  /** Refused when no set has `name`, or another set has `newName` already. */
  'paramsets:rename': {
    request: z.object({ accountId, queryId, name: z.string(), newName: parameterSetName }).strict(),
    response: SetList,
  },
  'paramsets:delete': {
    request: z.object({ accountId, queryId, name: z.string() }).strict(),
    response: SetList,
  },
} as const;
