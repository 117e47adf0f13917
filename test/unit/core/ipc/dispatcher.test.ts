import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, ok } from '../../../../main/contract/index.ts';
import { createDispatcher, type Handlers } from '../../../../main/core/ipc/dispatcher.ts';

const notUsed = async () => {
  throw new Error('not used in this test');
};

const LISTED = { accounts: [], activeAccountId: 'local', keychain: { available: true } };

function handlers(overrides: Partial<Handlers> = {}): Handlers {
  const unused = Object.fromEntries(CHANNEL_NAMES.map((name) => [name, notUsed])) as unknown as Handlers;
  return { ...unused, 'accounts:list': async () => ok(LISTED), ...overrides };
}

describe('the dispatcher', () => {
  const trusted = 'window';
  const make = (overrides: Partial<Handlers> = {}, onInternalError?: (channel: string, error: unknown) => void) =>
    createDispatcher<string>({ handlers: handlers(overrides), isTrustedSender: (sender) => sender === trusted, onInternalError });

  it('passes a valid request to its handler and returns its result', async () => {
    expect(await make()('accounts:list', {}, trusted)).toEqual({ ok: true, data: LISTED });
  });

  it('refuses a sender that is not trusted before looking at anything else', async () => {
    const result = await make()('no-such-channel', { junk: true }, 'a frame');
    expect(result).toMatchObject({ ok: false, error: { code: 'untrusted_sender' } });
  });

  it('answers an unknown channel with unknown_channel', async () => {
    const result = await make()('files:delete', {}, trusted);
    expect(result).toMatchObject({ ok: false, error: { code: 'unknown_channel' } });
    expect(result.ok ? '' : result.error.message).toContain('files:delete');
  });

  it('answers a bad payload with invalid_request naming the field, without calling the handler', async () => {
    let called = false;
    const dispatch = make({
      'executions:list': async () => {
        called = true;
        return ok({ executions: [] });
      },
    });
    const result = await dispatch('executions:list', { accountId: 'local', limit: 'ten' }, trusted);
    expect(called).toBe(false);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_request');
    expect(result.error.message).toContain('limit');
    expect(result.error.details).toEqual([expect.objectContaining({ field: 'limit' })]);
  });

  it('names the field of a refinement (endRow), of a pattern, and of an unexpected key', async () => {
    const range = await make()('results:getRows', { accountId: 'local', executionId: 'x', startRow: 50, endRow: 10 }, trusted);
    expect(range).toMatchObject({ ok: false, error: { code: 'invalid_request', details: [{ field: 'endRow' }] } });
    const pattern = await make()('ui:get', { accountId: 'local', key: 'Bad Key' }, trusted);
    expect(pattern).toMatchObject({
      ok: false,
      error: {
        details: [
          { field: 'key', message: '“key” must be lowercase letters, digits and _.:- starting with a letter, at most 120 characters.' },
        ],
      },
    });
    const extra = await make()('accounts:list', { sneaky: 1 }, trusted);
    expect(extra).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(extra.ok ? '' : extra.error.message).toContain('sneaky');
  });

  it('turns a handler that throws into an internal error, and reports it', async () => {
    const reported: string[] = [];
    const dispatch = make({ 'accounts:list': async () => Promise.reject(new Error('boom')) }, (channel) => reported.push(channel));
    const result = await dispatch('accounts:list', {}, trusted);
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(result.ok ? '' : result.error.message).not.toContain('boom');
    expect(reported).toEqual(['accounts:list']);
  });
});
