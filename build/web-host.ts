import { join } from 'node:path';
import { HOST_MALLOC_ARENAS } from '../main/common/memory-budgets.ts';

// The browser host as it is started (`npm run web`, `npm start` where Electron is not, the
// end-to-end tests, the benches): from the bundle `npm run build` makes of it (vite.config.ts),
// not from its TypeScript sources, since Node strips a .ts file's types with a WebAssembly
// compiler that each thread loading one loads for itself and keeps while it runs; the host's
// thread and the service's both did. What Node reads only as it starts is set here too.

const PROJECT_DIR = join(import.meta.dirname, '..');

export const WEB_HOST_ENTRY = join(PROJECT_DIR, 'out/main/web-host.js');

/**
 * The environment of a host's process (the browser host's, the service's alone): this one's, with
 * malloc's arenas bounded (see HOST_MALLOC_ARENAS) unless the user set them.
 */
export function hostProcessEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { MALLOC_ARENA_MAX: String(HOST_MALLOC_ARENAS), ...env };
}

/** Node's arguments and environment that run the built browser host with its own arguments (`--port`, `--data-dir`…). */
export function webHostCommand(hostArgs: string[], env: NodeJS.ProcessEnv = process.env): { args: string[]; env: NodeJS.ProcessEnv } {
  return { args: [WEB_HOST_ENTRY, ...hostArgs], env: hostProcessEnv(env) };
}
