/**
 * The result's lists as plain values, apart from its definition (resultSchema.ts and the files it
 * reads): the panel, the drivers and the extension's entry read these without loading the
 * definition's validator.
 */

export const RESULT_SCHEMA = 'dbprobe.run/v1';

/** The steps of opening a connection, in order. */
export const CONNECT_STEPS = ['dns', 'tcp', 'tls', 'handshake'] as const;
export type ConnectStep = (typeof CONNECT_STEPS)[number];

/** Failure classes every driver error is mapped to (errors.ts has what a user should do about each). */
export const ERROR_CLASSES = [
  'config',
  'dns',
  'refused',
  'timeout',
  'tls',
  'auth',
  'permission',
  'query',
  'closed',
  'cancelled',
  'unknown',
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

/** Where a server-time figure came from: per sample from each answer, or per run from the server's counters. */
export const SERVER_TIME_SOURCES = [
  'planetscale-timing',
  'hrana',
  'server-timing',
  'explain-analyze',
  'pg_stat_statements',
  'performance_schema',
  'opLatencies',
  'commandstats',
] as const;
export type ServerTimeSource = (typeof SERVER_TIME_SOURCES)[number];

/**
 * What a streamed answer's first arrival is: a row (pg's DataRow, mysql2's row packet) or a batch of
 * documents (a mongodb cursor's first reply).
 */
export const FIRST_ARRIVALS = ['row', 'batch'] as const;
export type FirstArrival = (typeof FIRST_ARRIVALS)[number];
