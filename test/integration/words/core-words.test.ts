import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, type ContractError } from '../../../main/contract/index.ts';
import { noResultText } from '../../../main/core/executions/states.ts';
import { settingsHandlers, type SettingsHandlerOptions } from '../../../main/core/handlers/settings.ts';
import { createDispatcher, type Handlers } from '../../../main/core/ipc/dispatcher.ts';
import { partialFailure } from '../../../main/core/results/read-range.ts';
import { WHOLE_RESULT_ONLY } from '../../../main/core/results/read-sample.ts';
import { failureText } from '../../../main/core/words.ts';
import { expectSentences, expectWellSaid } from './read-words.ts';

// Messages core gives for requests it refuses itself: a payload that fails its schema (field by
// field), a handler that throws, an execution with no result.

const throwing = async () => {
  throw new Error('boom');
};
const dispatch = createDispatcher<string>({
  handlers: Object.fromEntries(CHANNEL_NAMES.map((name) => [name, throwing])) as unknown as Handlers,
  isTrustedSender: () => true,
});

async function refusal(channel: string, payload: unknown): Promise<ContractError> {
  const answer = await dispatch(channel, payload, 'window');
  expect(answer.ok).toBe(false);
  return answer.ok ? null! : answer.error;
}

describe('what core says of a request it refuses', () => {
  it.each([
    ['executions:list', { accountId: 'local', limit: 'ten' }, '“limit” must be a number.'],
    ['executions:list', { accountId: 'local', limit: 0 }, '“limit” must be at least 1.'],
    ['executions:list', { accountId: 'local', limit: 5000 }, '“limit” must be at most 500.'],
    ['executions:list', { accountId: 'local', limit: 1.5 }, '“limit” must be a whole number.'],
    ['accounts:add', { label: 'Work' }, '“apiKey” is missing.'],
    ['accounts:add', { label: 'Work', apiKey: 'k', kind: 'robot' }, '“kind” must be one of "user", "team".'],
    ['accounts:list', { sneaky: 1 }, 'The request has a field the app does not know: “sneaky”.'],
    [
      'results:getRows',
      { accountId: 'local', executionId: 'x', startRow: 50, endRow: 10 },
      '“endRow” must be above startRow, by at most 10000 rows.',
    ],
    [
      'settings:set',
      {
        explorers: {
          mychain: { address: 'ftp://x', transaction: 'https://x.example/tx/{value}', block: 'https://x.example/block/{value}' },
        },
      },
      '“explorers.mychain.address” is not valid: an explorer link must be an https address with {value} where the value goes, such as https://etherscan.io/address/{value}.',
    ],
    ['queries:setFlags', { accountId: 'local', queryId: 1 }, 'Give archived or isPrivate.'],
  ])('%s with %j: %s', async (channel, payload, said) => {
    const error = await refusal(channel, payload);
    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe(said);
    expectWellSaid(error);
    for (const detail of error.details as { message: string }[]) expectSentences(detail.message);
  });

  it('several fields: one sentence each', async () => {
    const error = await refusal('accounts:add', {});
    expect(error.message).toBe('“label” is missing. “apiKey” is missing.');
    expectWellSaid(error);
  });

  it('a sender that is not the app, or a channel it does not know', async () => {
    const untrusted = await createDispatcher<string>({ handlers: {} as Handlers, isTrustedSender: () => false })(
      'accounts:list',
      {},
      'frame',
    );
    const unknown = await refusal('files:delete', {});
    for (const answer of [untrusted, { ok: false as const, error: unknown }]) {
      expect(answer.ok).toBe(false);
      if (!answer.ok) expectWellSaid(answer.error);
    }
  });

  it('a partial result, and a sample of a view the service cannot take', () => {
    expectWellSaid(partialFailure(null).error);
    expectWellSaid(WHOLE_RESULT_ONLY.error);
  });

  it('a handler that throws: where the error went, not the error', async () => {
    const error = await refusal('accounts:list', {});
    expect(error.code).toBe('internal');
    expectWellSaid(error);
  });

  it.each([
    'QUERY_STATE_PENDING',
    'QUERY_STATE_EXECUTING',
    'QUERY_STATE_FAILED',
    'QUERY_STATE_CANCELLED',
    'QUERY_STATE_EXPIRED',
    'QUERY_STATE_NEW',
  ])('an execution %s has no result, said in words', (state) => {
    for (const use of ['read', 'cache', 'export', 'sample']) expectWellSaid({ code: 'bad_request', message: noResultText(use, state) });
  });
});

describe('what the settings say when they cannot do it', () => {
  const about = { logsDir: '/home/sam/.config/Querydesk/logs' } as SettingsHandlerOptions['about'];
  const handlers = (openFolder: SettingsHandlerOptions['openFolder']) =>
    settingsHandlers({
      settings: { current: () => ({}), update: async () => readFileSync('/nonexistent/querydesk/settings.json') },
      about,
      cache: {},
      logger: { error: () => undefined },
      accounts: () => [],
      openFolder,
    } as unknown as SettingsHandlerOptions);

  it('settings not saved, a folder not opened, or no way to open it', async () => {
    const saved = await handlers(null)['settings:set']({ theme: 'dark' } as never);
    const noFolders = await handlers(null)['settings:openLogsFolder']({});
    const notOpened = await handlers(async () => 'No application is registered to open folders.')['settings:openLogsFolder']({});
    expect(noFolders.ok ? '' : noFolders.error.message).toBe(
      'The browser cannot open folders on this computer; the logs are in /home/sam/.config/Querydesk/logs.',
    );
    for (const answer of [saved, noFolders, notOpened]) {
      expect(answer.ok).toBe(false);
      if (!answer.ok) expectWellSaid(answer.error);
    }
  });
});

describe('what a failed file write says', () => {
  function thrownBy(work: () => unknown): unknown {
    try {
      work();
    } catch (error) {
      return error;
    }
    throw new Error('expected a failure');
  }

  it('the file system codes in words, naming the folder, and anything else as a sentence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'querydesk-words-'));
    try {
      const missing = failureText(thrownBy(() => writeFileSync(join(dir, 'no-folder', 'rows.csv'), 'x')));
      expect(missing).toBe(`The folder ${join(dir, 'no-folder')} does not exist (ENOENT).`);
      const folder = failureText(thrownBy(() => writeFileSync(dir, 'x')));
      expect(folder).toBe(`The path ${dir} is a folder (EISDIR).`);
      for (const text of [missing, folder, failureText(new Error('IO Error: the disk went away.')), failureText('')]) expectSentences(text);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
