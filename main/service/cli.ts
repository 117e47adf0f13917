// `npm run service -- [flags]`: the embedded service on its own, until SIGINT or SIGTERM.
import './thread/size-thread-pool.ts';
import { AccountsConfigError } from './accounts/accounts-config.ts';
import { parseServiceArgs, USAGE, UsageError } from './cli-args.ts';
import type { RunningService, ServiceOptions } from './index.ts';
import { startServiceThread } from './thread/start-thread.ts';

let options: ServiceOptions;
try {
  options = parseServiceArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`service: ${error.message}\n${USAGE}`);
  process.exit(2);
}

let service: RunningService;
try {
  service = await startServiceThread(options, {
    onCrash: (crash) => {
      console.error(`service: stopped: ${crash.stack ?? crash.message}`);
      process.exit(1);
    },
    onFallback: (reason) => console.error(`service: runs in the main thread (${reason.message})`),
  });
} catch (error) {
  if (!(error instanceof AccountsConfigError)) throw error;
  console.error(`service: --accounts: ${error.message}`);
  process.exit(2);
}
console.log(`Querydesk service listening on ${service.baseUrl} (data: ${options.dataDir}; demo API key: ${service.demoApiKey ?? 'none'})`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`service: ${signal}, stopping`);
  await service.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
