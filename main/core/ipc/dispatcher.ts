import type { z } from 'zod';
import {
  channels,
  fail,
  isChannelName,
  type ChannelName,
  type ChannelResponse,
  type ContractError,
  type Result,
} from '../../contract/index.ts';

/** The implementation of every channel. A handler returns a Result; it should not throw. */
export type Handlers = {
  [C in ChannelName]: (request: z.output<(typeof channels)[C]['request']>) => Promise<Result<ChannelResponse<C>>>;
};

export type Dispatch<S> = (channel: unknown, payload: unknown, sender: S) => Promise<Result<unknown>>;

/**
 * The one path every request from a renderer takes, whichever host carried it:
 * sender check, then payload validation, then the handler. Nothing thrown escapes.
 */
export function createDispatcher<S>(options: {
  handlers: Handlers;
  isTrustedSender: (sender: S) => boolean;
  onInternalError?: (channel: ChannelName, error: unknown) => void;
  /** A request its handler never saw, its payload being invalid: for core to log what matters (`Core.onInvalidRequest`). */
  onInvalidRequest?: (channel: ChannelName, payload: unknown, error: ContractError) => void;
}): Dispatch<S> {
  const { handlers, isTrustedSender, onInternalError, onInvalidRequest } = options;
  return async (channel, payload, sender) => {
    if (!isTrustedSender(sender)) return fail('untrusted_sender', 'The request did not come from the app window.');
    if (!isChannelName(channel)) {
      return fail('unknown_channel', `Unknown channel ${JSON.stringify(String(channel)).slice(0, 120)}.`);
    }
    const parsed = channels[channel].request.safeParse(payload ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        field: issue.path.map(String).join('.') || '(payload)',
        message: issue.message,
      }));
      const summary = issues.map((i) => `${i.field}: ${i.message}`).join('; ');
      const refused = fail('invalid_request', `Invalid request for ${channel}: ${summary}`, issues);
      onInvalidRequest?.(channel, payload, refused.error);
      return refused;
    }
    try {
      const handler = handlers[channel] as (request: unknown) => Promise<Result<unknown>>;
      return await handler(parsed.data);
    } catch (error) {
      onInternalError?.(channel, error);
      return fail('internal', `Something went wrong in ${channel}. The error has been logged.`);
    }
  };
}
