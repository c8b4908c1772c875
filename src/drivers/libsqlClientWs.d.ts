// @libsql/client exports ./ws (lib-cjs/ws.js) but its typesVersions map omits it, so TypeScript's
// node10 resolution finds no types for the subpath: these are lib-esm/ws.d.ts's, narrowed to what
// the driver uses.
declare module '@libsql/client/ws' {
  import type { Client, Config } from '@libsql/client';
  export function createClient(config: Config): Client;
}
