/**
 * Statements written in JavaScript/TypeScript, found over the token stream of jsTokens.ts:
 * - SQL in tagged templates (sql`...`, Prisma's $queryRaw`...`), its ${...} parts as parameters;
 * - SQL as the first argument of db.query('...'), client.execute('...'), pool.unsafe(...) and kin;
 * - a plain string literal that is unmistakably SQL (upper-case verb and a clause keyword);
 * - Redis commands and MongoDB find/findOne calls (redisCalls.ts, mongoCalls.ts).
 * Anything built from variables that cannot be turned into a workload is left alone.
 */
import { identAt, tokenizeJs, type JsToken } from './jsTokens';
import { mongoCall } from './mongoCalls';
import { redisCall } from './redisCalls';
import { sqlSegments } from '../../shared/sqlText';
import type { FoundStatement } from './foundStatement';
import type { SqlParameter } from './parameters';
import { findSqlParameters } from './parameters';

const SQL_TAGS = new Set(['sql', '$queryraw', '$executeraw', 'queryraw', 'executeraw']);
const SQL_METHODS = new Set([
  'query',
  'execute',
  'exec',
  'unsafe',
  'raw',
  'prepare',
  'all',
  'get',
  'run',
  '$queryrawunsafe',
  '$executerawunsafe',
  'queryraw',
  'executeraw',
  'sql',
]);
const SQL_VERBS = new Set([
  'SELECT',
  'WITH',
  'INSERT',
  'UPDATE',
  'DELETE',
  'MERGE',
  'REPLACE',
  'UPSERT',
  'VALUES',
  'TABLE',
  'SHOW',
  'EXPLAIN',
  'CREATE',
  'DROP',
  'ALTER',
  'TRUNCATE',
  'CALL',
  'PRAGMA',
  'DESCRIBE',
]);
const CLAUSE = /\b(FROM|INTO|SET|WHERE|VALUES|JOIN|TABLE|AS)\b/;
const MAX_STATEMENT_CHARS = 16 * 1024;

/** Stops after `limit` statements: a generated file with thousands of queries costs no more. */
export function findJsStatements(text: string, limit: number): FoundStatement[] {
  const tokens = tokenizeJs(text);
  const found: FoundStatement[] = [];
  let consumedUntil = -1;
  for (let k = 0; k < tokens.length && found.length < limit; k++) {
    if (k <= consumedUntil) continue;
    const token = tokens[k]!;
    if (token.type === 'ident') {
      const match = redisCall(tokens, k) ?? mongoCall(tokens, k);
      if (match) {
        found.push(match.statement);
        consumedUntil = match.lastToken;
      }
      continue;
    }
    if (token.type !== 'string' && token.type !== 'template') continue;
    const statement = sqlLiteral(tokens, k);
    if (statement) found.push(statement);
  }
  return found;
}

function sqlLiteral(tokens: JsToken[], k: number): FoundStatement | undefined {
  const token = tokens[k]!;
  if (token.type !== 'string' && token.type !== 'template') return undefined;
  const previous = tokens[k - 1];
  const tag = token.type === 'template' && previous?.type === 'ident' ? previous.value : undefined;
  const method = previous?.type === 'punct' && previous.value === '(' ? identAt(tokens, k - 2) : undefined;
  const built =
    token.type === 'string'
      ? { text: token.value, parameters: findSqlParameters(token.value) }
      : fromTemplate(token);
  if (!built || built.text.length > MAX_STATEMENT_CHARS) return undefined;
  const body = built.text.trim();
  let origin: string;
  if (tag !== undefined) {
    if (!SQL_TAGS.has(tag.toLowerCase()) || !startsWithSqlVerb(body)) return undefined;
    origin = `${tag}\`...\``;
  } else if (method !== undefined && SQL_METHODS.has(method.toLowerCase()) && startsWithSqlVerb(body)) {
    origin = `.${method}(...)`;
  } else if (isUnmistakablySql(body) && (token.type === 'string' || token.expressions.length === 0)) {
    origin = 'a SQL string';
  } else return undefined;
  const lead = built.text.indexOf(body);
  // Found only now: most string literals of a file are not SQL and need no parameter scan.
  const parameters = (built.parameters ?? findSqlParameters(built.text))
    .map((p) => ({ ...p, start: p.start - lead, end: p.end - lead }))
    .filter((p) => p.start >= 0 && p.end <= body.length);
  return {
    family: 'sql',
    text: body,
    start: tag !== undefined ? previous!.start : token.start,
    end: token.end,
    origin,
    parameters,
  };
}

/** A template's text with each ${expr} as a :name placeholder (named after a plain expression). */
function fromTemplate(
  token: Extract<JsToken, { type: 'template' }>,
): { text: string; parameters: SqlParameter[] } | undefined {
  let text = token.chunks[0] ?? '';
  const placed: { name: string; start: number; end: number }[] = [];
  token.expressions.forEach((expression, i) => {
    const plain = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(expression.slice(0, 128));
    const name = `:${plain ? expression.replaceAll('$', '') || `p${i + 1}` : `p${i + 1}`}`;
    placed.push({ name, start: text.length, end: text.length + name.length });
    text += name + (token.chunks[i + 1] ?? '');
  });
  if (text.length > MAX_STATEMENT_CHARS) return undefined;
  const inStrings = sqlSegments(text).filter((s) => s.kind === 'string');
  const parameters = placed.map((p) => ({
    ...p,
    ...(inStrings.some((s) => s.start < p.start && p.end < s.end) ? { inString: true } : {}),
  }));
  return { text, parameters };
}

function startsWithSqlVerb(text: string): boolean {
  const word = /^\(*\s*([A-Za-z]+)\s/.exec(text.slice(0, 64) + ' ')?.[1];
  return word !== undefined && SQL_VERBS.has(word.toUpperCase());
}

/** A string that is SQL with no call around it to say so: an upper-case verb and a clause, or SELECT x. */
function isUnmistakablySql(text: string): boolean {
  const word = /^([A-Z]+)\s/.exec(text.slice(0, 64) + ' ')?.[1];
  if (!word || !SQL_VERBS.has(word)) return false;
  return CLAUSE.test(text) || /^SELECT\s+[^\s]+$/.test(text);
}
