// Account defaults shared by the schemas and the renderer's forms; zod-free so the renderer
// bundle can import it.

/** The real service's base URL. */
export const DEFAULT_BASE_URL = 'https://api.dune.com';
/** The word in the service's header names: X-<NAME>-API-KEY. */
export const DEFAULT_SERVICE_NAME = 'DUNE';
