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
import { fieldProblems } from './field-problems.ts';

/** The implementation of every channel. A handler returns a Result; it should not throw. */
export type Handlers = {
  [C in ChannelName]: (request: z.output<(typeof channels)[C]['request']>) => Promise<Result<ChannelResponse<C>>>;
};

export interface Dispatch<S> {
  (channel: unknown, payload: unknown, sender: S): Promise<Result<unknown>>;
  /** Resolves once every request under way now has its answer: a host stopping waits for it before core closes. */
  settled(): Promise<void>;
}

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
  const underWay = new Set<Promise<Result<unknown>>>();
  const answer = async (channel: unknown, payload: unknown, sender: S): Promise<Result<unknown>> => {
    if (!isTrustedSender(sender)) return fail('untrusted_sender', 'The request did not come from the app window.');
    if (!isChannelName(channel)) {
      return fail('unknown_channel', `Unknown channel ${JSON.stringify(String(channel)).slice(0, 120)}.`);
    }
    const parsed = channels[channel].request.safeParse(payload ?? {});
    if (!parsed.success) {
      const issues = fieldProblems(parsed.error.issues, payload ?? {});
      const refused = fail('invalid_request', issues.map((issue) => issue.message).join(' '), issues);
      onInvalidRequest?.(channel, payload, refused.error);
      return refused;
    }
    try {
      const handler = handlers[channel] as (request: unknown) => Promise<Result<unknown>>;
      return await handler(parsed.data);
    } catch (error) {
      onInternalError?.(channel, error);
      // the renderer's advice for an internal error says where the day's log is
      return fail('internal', 'An error inside the app stopped this action.');
    }
  };
  const dispatch = (channel: unknown, payload: unknown, sender: S) => {
    const answering = answer(channel, payload, sender);
    underWay.add(answering);
    void answering.finally(() => underWay.delete(answering));
    return answering;
  };
  return Object.assign(dispatch, { settled: async () => void (await Promise.allSettled([...underWay])) });
}
