import type { z } from 'zod';
import { accountsChannels } from './accounts.ts';
import { appChannels } from './app.ts';
import { executionsChannels, executionsEvents } from './executions.ts';
import { freshnessChannels } from './freshness.ts';
import { localsqlChannels } from './localsql.ts';
import type { ChannelName, EventName } from './names.ts';
import { paramsetsChannels } from './paramsets.ts';
import { queriesChannels, queriesEvents } from './queries.ts';
import { resultsChannels, resultsEvents } from './results.ts';
import { schedulesChannels, schedulesEvents } from './schedules.ts';
import { settingsChannels } from './settings.ts';
import { tablesChannels, tablesEvents } from './tables.ts';
import { uiChannels } from './ui.ts';
import { usageChannels } from './usage.ts';
import { versionsChannels } from './versions.ts';
import { workspaceChannels, workspaceEvents } from './workspace.ts';

// The one map of every channel (the request main accepts and the data it answers with, inside a
// Result) and of every event main sends unprompted. Each prefix's channels live in the contract
// file of that name and are handled in `core/handlers/<prefix>.ts`.

/** Each prefix and its channels, for the test that holds files and prefixes together. */
export const CHANNELS_BY_PREFIX = {
  accounts: accountsChannels,
  app: appChannels,
  executions: executionsChannels,
  queries: queriesChannels,
  results: resultsChannels,
  settings: settingsChannels,
  tables: tablesChannels,
  ui: uiChannels,
  workspace: workspaceChannels,
  schedules: schedulesChannels,
  freshness: freshnessChannels,
  versions: versionsChannels,
  paramsets: paramsetsChannels,
  usage: usageChannels,
  localsql: localsqlChannels,
} as const;

export const channels = {
  ...accountsChannels,
  ...appChannels,
  ...executionsChannels,
  ...queriesChannels,
  ...resultsChannels,
  ...settingsChannels,
  ...tablesChannels,
  ...uiChannels,
  ...workspaceChannels,
  ...schedulesChannels,
  ...freshnessChannels,
  ...versionsChannels,
  ...paramsetsChannels,
  ...usageChannels,
  ...localsqlChannels,
} as const satisfies Record<ChannelName, { request: z.ZodType; response: z.ZodType }>;

export const events = {
  ...executionsEvents,
  ...queriesEvents,
  ...resultsEvents,
  ...tablesEvents,
  ...workspaceEvents,
  ...schedulesEvents,
} as const satisfies Record<EventName, z.ZodType>;

export type ChannelRequest<C extends ChannelName> = z.input<(typeof channels)[C]['request']>;
export type ChannelResponse<C extends ChannelName> = z.output<(typeof channels)[C]['response']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;
