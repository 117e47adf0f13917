import type { ChannelRequest } from '../../../../main/contract/index.ts';
import { createCore } from '../../../../main/core/index.ts';
import { createDispatcher } from '../../../../main/core/ipc/dispatcher.ts';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { memoryKeychain } from '../../../unit/core/memory-keychain.ts';

// A child process that "types" into a query's draft as fast as main answers, and says on stdout
// which keystroke main confirmed last; the test kills it with SIGKILL mid-typing.

const dataDir = process.argv[2]!;
const core = await createCore({
  host: 'web',
  version: '0.0.0',
  localService: { baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' },
  emit: () => undefined,
  dataDir,
  keyVault: new KeyVault(memoryKeychain()),
});
const dispatch = createDispatcher({ handlers: core.handlers, isTrustedSender: () => true });
for (let keystroke = 1; ; keystroke++) {
  const draft: ChannelRequest<'workspace:saveDraft'>['draft'] = {
    key: { queryId: 7 },
    // Long enough that a torn write would show.
    sql: `SELECT ${keystroke} AS typed -- ${'x'.repeat(20_000)}`,
    parameterValues: { n: String(keystroke) },
    baseVersion: 3,
  };
  const answer = await dispatch('workspace:saveDraft', { accountId: 'local', draft }, null);
  if (!answer.ok) throw new Error(JSON.stringify(answer));
  process.stdout.write(`${keystroke}\n`);
}
