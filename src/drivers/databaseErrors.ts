/**
 * Error codes and reply texts of the databases themselves, each driver's to apply in its own
 * `classify` (the engine knows only Node's network codes and generic wording).
 */
import { classifyByCode, messageOf } from '../core/failure';
import type { ErrorClass } from '../shared/errors';

// PostgreSQL SQLSTATE: 28000 invalid_authorization_specification, 28P01 invalid_password,
// 3D000 invalid_catalog_name (no such database: the credentials point nowhere); class 42 is syntax
// errors and access rule violations, i.e. the query, but for 42501 insufficient_privilege; 25006
// read_only_sql_transaction (a replica, default_transaction_read_only) is a refused operation too.
// 53300 too_many_connections ("sorry, too many clients already", a role's connection limit): the
// server turns the session away and closes it; `closed`'s hint names the connection limits.
const POSTGRES_CODES: Record<string, ErrorClass> = {
  '53300': 'closed',
  '28000': 'auth',
  '28P01': 'auth',
  '3D000': 'auth',
  '25006': 'permission',
  '42501': 'permission',
};

export function classifyPostgresError(error: unknown): ErrorClass | undefined {
  return classifyByCode(error, POSTGRES_CODES, (code) =>
    /^42[0-9A-Z]{3}$/.test(code) ? 'query' : undefined,
  );
}

const MYSQL_CODES: Record<string, ErrorClass> = {
  ER_ACCESS_DENIED_ERROR: 'auth',
  ER_DBACCESS_DENIED_ERROR: 'auth',
  ER_BAD_DB_ERROR: 'auth',
  ER_PARSE_ERROR: 'query',
  ER_NO_SUCH_TABLE: 'query',
  ER_BAD_FIELD_ERROR: 'query',
  PROTOCOL_CONNECTION_LOST: 'closed',
  // "Too many connections" (max_connections) and a user's own limit: turned away at the door.
  ER_CON_COUNT_ERROR: 'closed',
  ER_TOO_MANY_USER_CONNECTIONS: 'closed',
  ER_USER_LIMIT_REACHED: 'closed',
  // --read-only / super_read_only servers, read-only transactions, and grants that stop at reading.
  ER_OPTION_PREVENTS_STATEMENT: 'permission',
  ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION: 'permission',
  ER_READ_ONLY_MODE: 'permission',
  ER_TABLEACCESS_DENIED_ERROR: 'permission',
  ER_COLUMNACCESS_DENIED_ERROR: 'permission',
  ER_SPECIFIC_ACCESS_DENIED_ERROR: 'permission',
};

export function classifyMysqlError(error: unknown): ErrorClass | undefined {
  return classifyByCode(error, MYSQL_CODES);
}

// @libsql/client's LibsqlError codes: SQLite's own, and its URL checks.
const LIBSQL_CODES: Record<string, ErrorClass> = {
  SQLITE_ERROR: 'query',
  SQLITE_READONLY: 'permission',
  SQLITE_PERM: 'permission',
  SQLITE_AUTH: 'permission',
  SQLITE_CANTOPEN: 'config',
  URL_INVALID: 'config',
  URL_SCHEME_NOT_SUPPORTED: 'config',
};

export function classifyLibsqlError(error: unknown): ErrorClass | undefined {
  return (
    classifyByCode(error, LIBSQL_CODES, (code) =>
      /^SQLITE_READONLY_/.test(code) ? 'permission' : undefined,
    ) ??
    matchMessage(error, [
      [/attempt to write a readonly database/i, 'permission'],
      [/no such (table|column)/i, 'query'],
      // file: whose folder does not exist or cannot be written (SQLITE_CANTOPEN): fix the path.
      [/Unable to open connection to local database/i, 'config'],
    ])
  );
}

/** Redis error replies: WRONGPASS/NOAUTH refuse the credentials, ERR rejects the command. */
export function classifyRedisReply(error: unknown): ErrorClass | undefined {
  return matchMessage(error, [
    [/^(ReplyError: )?(WRONGPASS|NOAUTH)\b/, 'auth'],
    // A replica refuses writes (READONLY); an ACL user without the command or key (NOPERM).
    [/^(ReplyError: )?(READONLY|NOPERM)\b/, 'permission'],
    [/\bERR unknown command|^(ReplyError: )?ERR /, 'query'],
  ]);
}

function matchMessage(error: unknown, rules: [RegExp, ErrorClass][]): ErrorClass | undefined {
  // messageOf bounds the text (500 characters) before any pattern sees it.
  const message = messageOf(error);
  return rules.find(([pattern]) => pattern.test(message))?.[1];
}
