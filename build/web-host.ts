import { join } from 'node:path';
import { HOST_MALLOC_ARENAS } from '../main/common/memory-budgets.ts';

// The browser host as it is started (`npm run web`, `npm start` where Electron is not, the
// end-to-end tests, the benches): from the bundle `npm run build` makes of it (vite.config.ts),
// not from its TypeScript sources, since Node strips a .ts file's types with a WebAssembly
// compiler that each thread loading one loads for itself and keeps while it runs; the host's
// thread and the service's both did. What Node reads only as it starts is set here too.

const PROJECT_DIR = join(import.meta.dirname, '..');

export const WEB_HOST_ENTRY = join(PROJECT_DIR, 'out/main/web-host.js');

/** Node's arguments and environment that run the built browser host with its own arguments (`--port`, `--data-dir`…). */
export function webHostCommand(hostArgs: string[], env: NodeJS.ProcessEnv = process.env): { args: string[]; env: NodeJS.ProcessEnv } {
  // a value set by the user is kept
  return { args: [WEB_HOST_ENTRY, ...hostArgs], env: { MALLOC_ARENA_MAX: String(HOST_MALLOC_ARENAS), ...env } };
}
