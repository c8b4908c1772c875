/**
 * Redis commands in JavaScript/TypeScript: a call on a receiver whose name says redis, with literal
 * arguments only (redis.get('k'), this.redisClient.hset('h', 'f', 1), redis.call('GET', 'k')). The
 * workload is a command line the ioredis driver splits on spaces, so an argument holding one (or a
 * variable) leaves the call alone.
 */
import { identAt, isPunct, type JsToken } from './jsTokens';
import type { FoundStatement } from './foundStatement';

const REDIS_COMMANDS = new Set(
  (
    'get mget set setex psetex setnx getset getdel getex mset incr incrby decr decrby append del unlink exists ' +
    'expire pexpire ttl pttl type strlen hget hgetall hmget hset hsetnx hdel hkeys hvals hlen hexists hincrby ' +
    'lrange llen lindex lpush rpush lpop rpop lset lrem smembers sismember scard sadd srem spop srandmember ' +
    'zrange zrangebyscore zrevrange zscore zcard zcount zrank zadd zrem zincrby xadd xrange xlen ping echo ' +
    'scan keys dbsize publish bitcount getbit setbit pfadd pfcount geopos geodist'
  ).split(' '),
);

export /** redis.get('k'), this.redisClient.hset('h', 'f', 1), redis.call('GET', 'k'). */
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
