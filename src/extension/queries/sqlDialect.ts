/**
 * Which SQL dialects a statement is written for, read from marks that only some dialects accept:
 * PostgreSQL's catalogs (pg_class), `::` casts, ILIKE and $1 placeholders; MySQL's backticks,
 * `LIMIT a, b` and @@variables; SQLite's sqlite_master and PRAGMA. A probe sends the statement as it
 * is written, so a target whose dialect rejects a mark would only fail: the lens offers it nowhere
 * else. Marks are read in code only (sqlText.ts), so `'pg_class'` in a string or `::` in a comment
 * marks nothing. A statement with no mark reads as any SQL.
 */
import type { SqlDialect } from '../../core/driver';
import type { SqlParameter } from './parameters';
import { sqlCodeOnly, sqlSegments } from '../../shared/sqlText';

export interface DialectMark {
  /** What was seen, as written: "pg_class", "::", "ILIKE", "`id`", "$1". */
  seen: string;
  /** The dialects that accept it. */
  dialects: readonly SqlDialect[];
}

export interface DialectReading {
  /** The dialects the statement can run in; undefined when no mark narrows it (any SQL target). */
  dialects?: SqlDialect[];
  /** The marks that narrowed it, in the order they were read. */
  marks: DialectMark[];
  /** Marks of dialects that exclude each other were seen: nothing was narrowed. */
  conflicting?: boolean;
}

export const DIALECT_NAMES: Record<SqlDialect, string> = {
  postgres: 'PostgreSQL',
  mysql: 'MySQL',
  sqlite: 'SQLite/libSQL',
};

const POSTGRES: readonly SqlDialect[] = ['postgres'];
const MYSQL: readonly SqlDialect[] = ['mysql'];
const SQLITE: readonly SqlDialect[] = ['sqlite'];
const MYSQL_OR_SQLITE: readonly SqlDialect[] = ['mysql', 'sqlite'];
/** MySQL has no RETURNING; PostgreSQL and SQLite (3.35+, so libSQL) do. */
const POSTGRES_OR_SQLITE: readonly SqlDialect[] = ['postgres', 'sqlite'];

/** Patterns over code-only text (strings and comments blanked); the first match of each is the mark. */
const CODE_MARKS: readonly { pattern: RegExp; dialects: readonly SqlDialect[] }[] = [
  { pattern: /\bpg_[a-z0-9_]+/i, dialects: POSTGRES },
  { pattern: /::(?=\s*[A-Za-z_"])/, dialects: POSTGRES },
  { pattern: /\bILIKE\b/i, dialects: POSTGRES },
  { pattern: /\bDISTINCT\s+ON\s*\(/i, dialects: POSTGRES },
  { pattern: /\bSIMILAR\s+TO\b/i, dialects: POSTGRES },
  { pattern: /\bgenerate_series\s*\(/i, dialects: POSTGRES },
  { pattern: /\bRETURNING\b/i, dialects: POSTGRES_OR_SQLITE },
  { pattern: /@@[A-Za-z_]/, dialects: MYSQL },
  {
    pattern:
      /\bSHOW\s+(?:FULL\s+)?(?:TABLES|DATABASES|PROCESSLIST|COLUMNS|VARIABLES|STATUS|GRANTS|INDEX|CREATE\s+TABLE)\b/i,
    dialects: MYSQL,
  },
  { pattern: /\bFROM\s+DUAL\b/i, dialects: MYSQL },
  { pattern: /\bAUTO_INCREMENT\b/i, dialects: MYSQL },
  { pattern: /\bON\s+DUPLICATE\s+KEY\b/i, dialects: MYSQL },
  { pattern: /\b(?:STRAIGHT_JOIN|SQL_CALC_FOUND_ROWS)\b/i, dialects: MYSQL },
  { pattern: /\bLIMIT\s+[\w?:$@]+\s*,\s*[\w?:$@]+/i, dialects: MYSQL_OR_SQLITE },
  { pattern: /\bsqlite_[a-z_]+/i, dialects: SQLITE },
  { pattern: /^\s*PRAGMA\b/i, dialects: SQLITE },
  { pattern: /\bAUTOINCREMENT\b/i, dialects: SQLITE },
  { pattern: /\bGLOB\b/i, dialects: SQLITE },
  { pattern: /\bstrftime\s*\(/i, dialects: SQLITE },
];

/** Longer text is read only this far: a mark is near the start of any statement a person writes. */
const MAX_READ_CHARS = 16 * 1024;

/**
 * The dialects a statement can run in. `parameters` are its placeholders as found (parameters.ts):
 * `$1` is PostgreSQL's; `?` is MySQL's and SQLite's, but also PostgreSQL's jsonb operator, so it only
 * narrows what the other marks leave open.
 */
export function readSqlDialect(text: string, parameters: readonly SqlParameter[] = []): DialectReading {
  const source = text.length > MAX_READ_CHARS ? text.slice(0, MAX_READ_CHARS) : text;
  const code = sqlCodeOnly(source);
  const marks: DialectMark[] = [];
  for (const { pattern, dialects } of CODE_MARKS) {
    const match = pattern.exec(code);
    if (match) marks.push({ seen: match[0].trim().replace(/\s+/g, ' '), dialects });
  }
  const backtick = sqlSegments(source).find((s) => s.kind === 'identifier' && source[s.start] === '`');
  if (backtick) marks.push({ seen: source.slice(backtick.start, backtick.end), dialects: MYSQL_OR_SQLITE });
  const dollar = parameters.find((p) => /^\$\d+$/.test(p.name));
  if (dollar) marks.push({ seen: dollar.name, dialects: POSTGRES });

  let dialects: SqlDialect[] | undefined;
  for (const mark of marks)
    dialects = (dialects ?? [...mark.dialects]).filter((d) => mark.dialects.includes(d));
  if (dialects && dialects.length === 0) return { marks, conflicting: true };

  const question = parameters.find((p) => p.name.startsWith('?'));
  if (question) {
    const narrowed = (dialects ?? [...MYSQL_OR_SQLITE]).filter((d) => MYSQL_OR_SQLITE.includes(d));
    if (narrowed.length > 0) {
      marks.push({ seen: '?', dialects: MYSQL_OR_SQLITE });
      dialects = narrowed;
    }
  }
  return dialects ? { dialects, marks } : { marks };
}

/** "PostgreSQL", "MySQL or SQLite/libSQL". */
export function dialectWords(dialects: readonly SqlDialect[]): string {
  return dialects.map((d) => DIALECT_NAMES[d]).join(' or ');
}
