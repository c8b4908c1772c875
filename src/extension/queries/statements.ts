/**
 * "Probe this query": the statements of a document, with the ranges a CodeLens sits over. Pure (no
 * vscode), so every recogniser is unit-tested. Only the first MAX_SCAN_CHARS of a document are read,
 * and no statement longer than MAX_STATEMENT_CHARS is offered: a 5 MB generated file costs one
 * bounded pass, and the lens says that the rest was not scanned.
 */
import type { FoundStatement } from './foundStatement';
import { findJsStatements } from './jsStatements';
import { findSqlParameters } from './parameters';
import { splitSqlStatements } from '../../shared/sqlText';

// Its own file so the recognisers (jsStatements, mongoCalls, redisCalls) need not import this one.
export type { FoundStatement } from './foundStatement';

export interface StatementScan {
  statements: FoundStatement[];
  /** The document was longer than what was scanned (or held more statements than are offered). */
  truncated: boolean;
  scannedChars: number;
}

export const MAX_SCAN_CHARS = 512 * 1024;
export const MAX_STATEMENT_CHARS = 16 * 1024;
export const MAX_STATEMENTS = 500;

export const SQL_LANGUAGES: readonly string[] = [
  'sql',
  'pgsql',
  'postgres',
  'mysql',
  'sqlite',
  'plsql',
  'tsql',
];
export const JS_LANGUAGES: readonly string[] = [
  'typescript',
  'javascript',
  'typescriptreact',
  'javascriptreact',
];

export function findStatements(text: string, languageId: string): StatementScan {
  const scanned = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  let statements: FoundStatement[];
  if (SQL_LANGUAGES.includes(languageId)) {
    const all = splitSqlStatements(scanned);
    // The last statement of a cut file may be cut too: leave it out rather than probe half of it.
    const whole = scanned.length < text.length ? all.slice(0, -1) : all;
    statements = whole
      .filter((s) => s.text.length <= MAX_STATEMENT_CHARS)
      .map((s) => ({
        family: 'sql',
        text: s.text,
        start: s.start,
        end: s.end,
        origin: 'a .sql file',
        parameters: findSqlParameters(s.text),
      }));
  } else if (JS_LANGUAGES.includes(languageId)) {
    statements = findJsStatements(scanned, MAX_STATEMENTS + 1);
  } else statements = [];
  return {
    statements: statements.slice(0, MAX_STATEMENTS),
    truncated: scanned.length < text.length || statements.length > MAX_STATEMENTS,
    scannedChars: scanned.length,
  };
}

/**
 * A selection becomes a statement: the first one recognised inside it, else the selected text itself,
 * as Redis when it starts with a Redis command, Mongo when it reads `find coll {...}`, SQL otherwise.
 */
export function statementFromSelection(
  selected: string,
  languageId: string,
  offset: number,
): FoundStatement | undefined {
  if (selected.length > MAX_STATEMENT_CHARS) return undefined;
  const inner = findStatements(selected, SQL_LANGUAGES.includes(languageId) ? 'sql' : languageId)
    .statements[0];
  if (inner) return { ...inner, start: inner.start + offset, end: inner.end + offset };
  const text = selected.trim().replace(/;\s*$/, '');
  if (!text) return undefined;
  const start = offset + selected.indexOf(text);
  const base = { text, start, end: start + text.length, origin: 'the selection' };
  if (/^(find|findOne)\s+[\w.-]+(\s|$)/.test(text)) return { ...base, family: 'mongo' };
  if (
    /^(PING|GET|MGET|HGET|HGETALL|EXISTS|TTL|SET|DEL|INCR|LRANGE|SMEMBERS|ZRANGE|SCAN|KEYS)(\s|$)/i.test(
      text,
    ) &&
    !/\s(FROM|INTO|WHERE)\s/i.test(text)
  )
    return { ...base, family: 'redis' };
  return { ...base, family: 'sql', parameters: findSqlParameters(text) };
}
