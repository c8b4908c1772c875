/** Failure classes every driver error is mapped to, with what a user should do about each. */

import type { ErrorClass } from './schema/resultValues';

// Defined with the result (schema/): a sample's error and a kept failure are part of it.
export { ERROR_CLASSES } from './schema/resultValues';
export type { ErrorClass } from './schema/resultValues';
export type { ProbeFailure } from './schema/statsSchema';

export const ERROR_HINTS: Record<ErrorClass, string> = {
  config:
    'Fix the connection string or the target settings (see `dbprobe drivers` for the form each driver expects).',
  dns: 'Check the host name in the connection string and that this machine can resolve it.',
  refused:
    'Nothing accepted the connection: check the host and port, and that the server is running and reachable from here.',
  timeout: 'The server did not answer in time: check firewalls and the network path, or raise the timeout.',
  tls: 'The TLS handshake failed: check the TLS settings of the connection string (sslmode, rediss:, https:, tls=true). If the server certificate comes from a private CA (a self-hosted database, a local proxy), name that CA in the target\'s tls.caFile (dbprobe.json: "tls": {"caFile": "ca.pem"}) or in NODE_EXTRA_CA_CERTS for the whole process.',
  auth: 'The server refused the credentials: check the user name and password of the connection.',
  permission:
    'The database accepted the connection but refused this operation to this user or connection (a read-only database, replica or transaction, or a missing grant): use a read-only workload (SELECT 1), or connect to the primary as a user allowed to write.',
  query: 'The server rejected the workload: check the query of this target.',
  closed: 'The server closed the connection: check server logs, connection limits and idle timeouts.',
  cancelled: 'The run was cancelled before this finished.',
  unknown:
    'The driver gave an error this tool does not recognise: read its message above (the JSON report keeps the first few), and check the target settings.',
};
