/**
 * MongoDB reads in JavaScript/TypeScript: find/findOne with a filter made of literals only
 * (db.collection('users').findOne({ id: 1 }), the shell's db.users.find(), an optional .limit(N)),
 * as the mongodb driver's workload `find COLL {JSON} limit N`. A filter with a variable is left alone.
 */
import { identAt, isPunct, type JsToken } from './jsTokens';
import type { FoundStatement } from './foundStatement';

export /** db.collection('users').find({...}) / .findOne({...}), or the shell's db.users.find({...}). */
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
