/**
 * Read-only or not, for a statement about to be probed many times. The rule errs one way: anything
 * not known to only read is a write, and a write runs only after the user confirms it on targets that
 * allow writes. So a SELECT that locks rows (FOR UPDATE), creates a table (SELECT INTO), or calls a
 * function known to change state (nextval, pg_terminate_backend...) counts as a write too.
 */
import { sqlCodeOnly } from './sqlText';

export type QueryFamily = 'sql' | 'redis' | 'mongo';

export interface Classification {
  readOnly: boolean;
  /** The statement's verb (SELECT, INSERT, GET, find...), for the confirmation and the lens. */
  verb: string;
  /** Why it is not read-only, in words; empty when it is. */
  reason: string;
}

/** Statements whose first word only reads, subject to the checks below. */
const SQL_READ_VERBS = new Set([
  'SELECT',
  'WITH',
  'VALUES',
  'TABLE',
  'SHOW',
  'EXPLAIN',
  'DESCRIBE',
  'DESC',
  'PRAGMA',
]);
const SQL_WRITE_WORDS = new Set([
  'INSERT',
  'UPDATE',
  'DELETE',
  'MERGE',
  'UPSERT',
  'REPLACE',
  'TRUNCATE',
  'DROP',
  'CREATE',
  'ALTER',
  'GRANT',
  'REVOKE',
  'CALL',
  'COPY',
  'LOCK',
  'VACUUM',
  'REINDEX',
  'CLUSTER',
  'REFRESH',
  'NOTIFY',
  'SET',
]);
/**
 * Functions that change state even inside a SELECT. Not the sleeps (pg_sleep, SLEEP): they hold the
 * session and change nothing, and a statement with a known server time is how the database's own
 * time is checked (an EXPLAIN ANALYZE runs only what this calls read-only).
 */
const SQL_WRITE_FUNCTIONS = [
  'NEXTVAL',
  'SETVAL',
  'PG_ADVISORY_LOCK',
  'PG_ADVISORY_XACT_LOCK',
  'PG_TRY_ADVISORY_LOCK',
  'PG_TERMINATE_BACKEND',
  'PG_CANCEL_BACKEND',
  'PG_RELOAD_CONF',
  'PG_ROTATE_LOGFILE',
  'SET_CONFIG',
  'LO_IMPORT',
  'LO_EXPORT',
  'LO_UNLINK',
  'DBLINK_EXEC',
  'GET_LOCK',
  'RELEASE_LOCK',
  'BENCHMARK',
];

/** Longer statements are not read word by word: they count as writes (and say why). */
export const MAX_CLASSIFIED_CHARS = 64 * 1024;

export function classifySql(text: string): Classification {
  if (text.length > MAX_CLASSIFIED_CHARS)
    return {
      readOnly: false,
      verb: '',
      reason: `it is longer than ${MAX_CLASSIFIED_CHARS / 1024} KB, too long to check`,
    };
  const code = sqlCodeOnly(text);
  const statements = splitWords(code);
  if (statements.length > 1) {
    const verb = sqlWords(statements[0]!)[0]?.word ?? '';
    for (const s of statements) {
      const one = classifySql(s);
      if (!one.readOnly)
        return { readOnly: false, verb, reason: `it holds several statements, and ${one.reason}` };
    }
    return { readOnly: true, verb, reason: '' };
  }
  const words = sqlWords(code);
  const verb = words[0]?.word ?? '';
  if (!verb) return { readOnly: false, verb: '', reason: 'it is empty' };
  if (!SQL_READ_VERBS.has(verb))
    return { readOnly: false, verb, reason: `${verb} is not a read-only statement` };
  const forAt = words.findIndex((w) => w.word === 'FOR');
  const locking = forAt >= 0 ? words[forAt + 1]?.word : undefined;
  if (locking && ['UPDATE', 'SHARE', 'NO', 'KEY'].includes(locking))
    return { readOnly: false, verb, reason: `FOR ${locking} locks rows` };
  // replace(...) and insert(...) are string functions, not statements.
  const write = words.find((w) => SQL_WRITE_WORDS.has(w.word) && !w.call)?.word;
  // EXPLAIN without ANALYZE only plans; WITH and EXPLAIN ANALYZE run whatever they hold.
  const explainOnly = verb === 'EXPLAIN' && !words.some((w) => w.word === 'ANALYZE');
  if (write && !explainOnly) return { readOnly: false, verb, reason: `it contains ${write}` };
  if (verb === 'PRAGMA' && code.includes('='))
    return { readOnly: false, verb, reason: 'a PRAGMA with = changes a setting' };
  if (words.some((w) => w.word === 'INTO'))
    return { readOnly: false, verb, reason: `${verb} ... INTO writes a table or a file` };
  const fn = words.find((w) => w.call && SQL_WRITE_FUNCTIONS.includes(w.word));
  if (fn) return { readOnly: false, verb, reason: `${fn.word.toLowerCase()}() changes state` };
  return { readOnly: true, verb, reason: '' };
}

/** Upper-cased words of code-only SQL, each marked when a `(` follows it (a function call). */
function sqlWords(code: string): { word: string; call: boolean }[] {
  const words: { word: string; call: boolean }[] = [];
  for (const match of code.matchAll(/([A-Za-z_][A-Za-z0-9_$]*)(\s*\()?/g))
    words.push({ word: match[1]!.toUpperCase(), call: match[2] !== undefined });
  return words;
}

/** Statements separated by `;` in code-only text (strings already blanked), non-empty. */
function splitWords(code: string): string[] {
  return code
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Redis commands that never change data (and PING/ECHO/TIME, which touch none). */
const REDIS_READ = new Set(
  (
    'GET MGET EXISTS TTL PTTL EXPIRETIME TYPE STRLEN GETRANGE SUBSTR HGET HGETALL HMGET HKEYS HVALS HLEN ' +
    'HEXISTS HSTRLEN HRANDFIELD HSCAN LRANGE LLEN LINDEX LPOS SMEMBERS SISMEMBER SMISMEMBER SCARD ' +
    'SRANDMEMBER SSCAN SINTER SUNION SDIFF SINTERCARD ZRANGE ZRANGEBYSCORE ZRANGEBYLEX ZREVRANGE ' +
    'ZREVRANGEBYSCORE ZREVRANGEBYLEX ZSCORE ZMSCORE ZCARD ZCOUNT ZLEXCOUNT ZRANK ZREVRANK ZSCAN ' +
    'ZRANDMEMBER XRANGE XREVRANGE XLEN BITCOUNT BITPOS GETBIT PFCOUNT GEOPOS GEODIST GEOHASH GEOSEARCH ' +
    'GEORADIUS_RO GEORADIUSBYMEMBER_RO SCAN KEYS RANDOMKEY DBSIZE PING ECHO TIME INFO LCS DUMP ' +
    'OBJECT MEMORY JSON.GET JSON.MGET JSON.TYPE JSON.STRLEN JSON.ARRLEN JSON.OBJKEYS'
  ).split(' '),
);

export function classifyRedis(command: string): Classification {
  const verb = command.trim().split(/\s+/, 1)[0]?.toUpperCase() ?? '';
  if (REDIS_READ.has(verb)) return { readOnly: true, verb, reason: '' };
  return { readOnly: false, verb, reason: verb ? `${verb} is not a read-only Redis command` : 'it is empty' };
}

/** Mongo workloads as the mongodb driver takes them: find/findOne read; commands only when known to. */
const MONGO_READ_COMMANDS = new Set([
  'ping',
  'hello',
  'ismaster',
  'buildinfo',
  'serverstatus',
  'dbstats',
  'listcollections',
  'count',
]);

export function classifyMongo(workload: string): Classification {
  const text = workload.trim();
  const verb = /^(\w+)/.exec(text.slice(0, 64))?.[1] ?? (text.startsWith('{') ? 'command' : '');
  if (verb === 'find' || verb === 'findOne') return { readOnly: true, verb, reason: '' };
  if (verb === 'command') {
    const name = /^\{\s*"?([A-Za-z]+)"?\s*:/.exec(text.slice(0, 128))?.[1]?.toLowerCase() ?? '';
    if (MONGO_READ_COMMANDS.has(name)) return { readOnly: true, verb: name, reason: '' };
    return {
      readOnly: false,
      verb: name || verb,
      reason: `the ${name || 'unnamed'} command is not known to only read`,
    };
  }
  return { readOnly: false, verb, reason: `${verb || 'it'} is not a read-only Mongo operation` };
}

export function classify(family: QueryFamily, text: string): Classification {
  if (family === 'sql') return classifySql(text);
  if (family === 'redis') return classifyRedis(text);
  return classifyMongo(text);
}
