/**
 * Statements written in JavaScript/TypeScript, found over the token stream of jsTokens.ts:
 * - SQL in tagged templates (sql`...`, Prisma's $queryRaw`...`), its ${...} parts as parameters;
 * - SQL as the first argument of db.query('...'), client.execute('...'), pool.unsafe(...) and kin;
 * - a plain string literal that is unmistakably SQL (upper-case verb and a clause keyword);
 * - Redis commands on a receiver whose name says redis (redis.get('k'), this.redisClient.hgetall(...));
 * - MongoDB find/findOne with a literal filter (db.collection('users').findOne({ id: 1 }), db.users.find()).
 * Anything built from variables that cannot be turned into a workload is left alone.
 */
import { tokenizeJs, type JsToken } from './jsTokens';
import { sqlSegments } from './sqlText';
import type { FoundStatement } from './statements';
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
const REDIS_COMMANDS = new Set(
  (
    'get mget set setex psetex setnx getset getdel getex mset incr incrby decr decrby append del unlink exists ' +
    'expire pexpire ttl pttl type strlen hget hgetall hmget hset hsetnx hdel hkeys hvals hlen hexists hincrby ' +
    'lrange llen lindex lpush rpush lpop rpop lset lrem smembers sismember scard sadd srem spop srandmember ' +
    'zrange zrangebyscore zrevrange zscore zcard zcount zrank zadd zrem zincrby xadd xrange xlen ping echo ' +
    'scan keys dbsize publish bitcount getbit setbit pfadd pfcount geopos geodist'
  ).split(' '),
);
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

function identAt(tokens: JsToken[], k: number): string | undefined {
  const token = tokens[k];
  return token?.type === 'ident' ? token.value : undefined;
}

function isPunct(token: JsToken | undefined, value: string): boolean {
  return token?.type === 'punct' && token.value === value;
}

/** redis.get('k'), this.redisClient.hset('h', 'f', 1), redis.call('GET', 'k'). */
function redisCall(
  tokens: JsToken[],
  k: number,
): { statement: FoundStatement; lastToken: number } | undefined {
  const receiver = tokens[k]!;
  if (receiver.type !== 'ident' || !/redis/i.test(receiver.value.slice(0, 64))) return undefined;
  if (!isPunct(tokens[k + 1], '.') || !isPunct(tokens[k + 3], '(')) return undefined;
  const method = identAt(tokens, k + 2)?.toLowerCase();
  if (!method || !(REDIS_COMMANDS.has(method) || method === 'call')) return undefined;
  const args: string[] = [];
  let j = k + 4;
  for (; j < tokens.length && args.length < 64; j++) {
    const token = tokens[j]!;
    if (isPunct(token, ')')) break;
    if (isPunct(token, ',')) continue;
    const value = token.type === 'string' || token.type === 'number' ? token.value : undefined;
    // The Redis workload is split on spaces: an argument with one (or a variable) cannot be sent as is.
    if (value === undefined || value === '' || /\s/.test(value)) return undefined;
    args.push(value);
  }
  if (!isPunct(tokens[j], ')')) return undefined;
  const words = method === 'call' ? args : [method.toUpperCase(), ...args];
  if (words.length === 0) return undefined;
  words[0] = words[0]!.toUpperCase();
  return {
    statement: {
      family: 'redis',
      text: words.join(' '),
      start: receiver.start,
      end: tokens[j]!.end,
      origin: `${receiver.value}.${identAt(tokens, k + 2)}(...)`,
    },
    lastToken: j,
  };
}

/** db.collection('users').find({...}) / .findOne({...}), or the shell's db.users.find({...}). */
function mongoCall(
  tokens: JsToken[],
  k: number,
): { statement: FoundStatement; lastToken: number } | undefined {
  const first = tokens[k]!;
  let collection: string | undefined;
  let at: number;
  if (identAt(tokens, k) === 'collection' && isPunct(tokens[k - 1], '.') && isPunct(tokens[k + 1], '(')) {
    const name = tokens[k + 2];
    if (name?.type !== 'string' || !isPunct(tokens[k + 3], ')')) return undefined;
    collection = name.value;
    at = k + 4;
  } else if (identAt(tokens, k) === 'db' && isPunct(tokens[k + 1], '.') && tokens[k + 2]?.type === 'ident') {
    collection = identAt(tokens, k + 2);
    at = k + 3;
  } else return undefined;
  const op = identAt(tokens, at + 1);
  if (
    !collection ||
    !/^[\w.-]+$/.test(collection) ||
    !isPunct(tokens[at], '.') ||
    (op !== 'find' && op !== 'findOne')
  )
    return undefined;
  if (!isPunct(tokens[at + 2], '(')) return undefined;
  const filter = literalObject(tokens, at + 3);
  if (!filter) return undefined;
  const close = closingParen(tokens, filter.next);
  if (close === undefined) return undefined;
  let last = close;
  let limit = '';
  if (
    op === 'find' &&
    isPunct(tokens[close + 1], '.') &&
    identAt(tokens, close + 2) === 'limit' &&
    isPunct(tokens[close + 3], '(')
  ) {
    const n = tokens[close + 4];
    if (n?.type === 'number' && /^\d+$/.test(n.value) && isPunct(tokens[close + 5], ')')) {
      limit = ` limit ${n.value}`;
      last = close + 5;
    }
  }
  const start =
    isPunct(tokens[k - 1], '.') && tokens[k - 2]?.type === 'ident' ? tokens[k - 2]!.start : first.start;
  return {
    statement: {
      family: 'mongo',
      text: `${op} ${collection} ${filter.json}${limit}`,
      start,
      end: tokens[last]!.end,
      origin: `.${op}(...)`,
    },
    lastToken: last,
  };
}

/** An object literal of literals only, as JSON; `{}` when the call has no argument. */
function literalObject(tokens: JsToken[], k: number): { json: string; next: number } | undefined {
  if (isPunct(tokens[k], ')')) return { json: '{}', next: k };
  if (!isPunct(tokens[k], '{')) return undefined;
  let json = '';
  let depth = 0;
  for (let j = k; j < tokens.length && j < k + 2000; j++) {
    const token = tokens[j]!;
    const isKey = isPunct(tokens[j + 1], ':');
    if (token.type === 'punct') {
      if (!'{}[],:-'.includes(token.value)) return undefined;
      // A trailing comma is fine in JavaScript, not in JSON.
      if (token.value === ',' && (isPunct(tokens[j + 1], '}') || isPunct(tokens[j + 1], ']'))) continue;
      json += token.value;
      if (token.value === '{' || token.value === '[') depth++;
      if (token.value === '}' || token.value === ']') depth--;
      if (depth === 0) return isValidJson(json) ? { json, next: j + 1 } : undefined;
    } else if (token.type === 'ident') {
      if (isKey) json += JSON.stringify(token.value);
      else if (['true', 'false', 'null'].includes(token.value)) json += token.value;
      else return undefined;
    } else if (token.type === 'string') json += JSON.stringify(token.value);
    else if (token.type === 'number') json += token.value;
    else if (token.type === 'template' && token.expressions.length === 0)
      json += JSON.stringify(token.chunks[0] ?? '');
    else return undefined;
  }
  return undefined;
}

function closingParen(tokens: JsToken[], k: number): number | undefined {
  let depth = 0;
  for (let j = k; j < tokens.length && j < k + 2000; j++) {
    const token = tokens[j]!;
    if (isPunct(token, '(')) depth++;
    if (isPunct(token, ')')) {
      if (depth === 0) return j;
      depth--;
    }
  }
  return undefined;
}

function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
