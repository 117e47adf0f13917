// Channel and event names without their schemas, so the preload bundle can allowlist them
// without pulling in the schema library. The channel map in `channels.ts` is checked against these.

export const CHANNEL_NAMES = [
  'app:openUrl',
  'accounts:list',
  'accounts:add',
  'accounts:update',
  'accounts:remove',
  'accounts:setActive',
  'accounts:test',
  'queries:get',
  'queries:create',
  'queries:setFlags',
  'executions:run',
  'executions:runSql',
  'executions:get',
  'executions:cancel',
  'executions:list',
  'executions:viewing',
  'results:getRows',
  'results:sample',
  'results:cacheStatus',
  'results:cache',
  'results:cacheCancel',
  'results:cacheSettings',
  'results:chart',
  'results:profile',
  'results:compare',
  'results:pivot',
  'results:export',
  'results:exportPivot',
  'results:exportCancel',
  'tables:list',
  'tables:delete',
  'tables:uploadBegin',
  'tables:uploadChunk',
  'tables:uploadCommit',
  'tables:uploadRetry',
  'tables:uploadCancel',
  'ui:get',
  'ui:set',
  'workspace:open',
  'workspace:refresh',
  'workspace:network',
  'workspace:query',
  'workspace:saveDraft',
  'workspace:discardDraft',
  'queries:save',
  'queries:resolvePending',
  'executions:latest',
  'executions:history',
  'settings:get',
  'settings:set',
  'settings:clearCache',
  'settings:diagnostics',
  'settings:openLogsFolder',
  'schedules:list',
  'schedules:save',
  'schedules:pause',
  'schedules:delete',
  'schedules:dismiss',
  'freshness:query',
  'freshness:setMaxAge',
  'freshness:pin',
  'freshness:pinState',
  'versions:list',
  'paramsets:list',
  'paramsets:save',
  'paramsets:rename',
  'paramsets:delete',
  'usage:settings',
  'usage:report',
  'localsql:tables',
  'localsql:run',
  'localsql:attachCsv',
  'localsql:detachCsv',
  'localsql:cancel',
] as const;

export const EVENT_NAMES = [
  'execution:update',
  'execution:show',
  'results:cacheStatus',
  'results:exportProgress',
  'tables:uploadProgress',
  'workspace:changed',
  'workspace:sync',
  'query:open',
  'schedules:changed',
  'schedules:notice',
] as const;

export type ChannelName = (typeof CHANNEL_NAMES)[number];
export type EventName = (typeof EVENT_NAMES)[number];

/** The single IPC channel names used on the wire by the Electron host and its preload. */
export const IPC_INVOKE = 'querydesk:invoke';
export const IPC_EVENT = 'querydesk:event';
/** Main to the preload: the window is closing. The preload answers IPC_STOPPED once its listeners have run. */
export const IPC_STOPPING = 'querydesk:stopping';
export const IPC_STOPPED = 'querydesk:stopped';

export function isChannelName(value: unknown): value is ChannelName {
  return typeof value === 'string' && (CHANNEL_NAMES as readonly string[]).includes(value);
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENT_NAMES as readonly string[]).includes(value);
}
