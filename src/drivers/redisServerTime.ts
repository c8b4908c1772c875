/**
 * Redis's own time for a command, from `INFO commandstats` once before and once after a kind's
 * samples: the delta of the command's `usec` over the delta of its `calls` is the mean time the
 * server spent executing it (not reading or writing the socket), over every client that ran it.
 */
import type { ServerTimeRun } from '../core/driver';
import { counterDeltaRun, type Counters } from './counterDelta';

export interface RedisCaller {
  call(command: string, ...args: string[]): Promise<unknown>;
}

export async function redisServerTimeRun(client: RedisCaller, command: string): Promise<ServerTimeRun> {
  const name = command.toLowerCase();
  return counterDeltaRun(() => commandStats(client, name), {
    source: 'commandstats',
    unitUs: 1,
    none: `INFO commandstats counted no ${name} call over the samples`,
    note: `${name}'s execution in the server, over every client's calls during the samples`,
  });
}

/** `cmdstat_ping:calls=10,usec=25,usec_per_call=2.50,...` for one command; zeros when not yet run. */
async function commandStats(client: RedisCaller, name: string): Promise<Counters> {
  const info = String(await client.call('INFO', 'commandstats'));
  const line = info.split(/\r?\n/).find((l) => l.startsWith(`cmdstat_${name}:`));
  const field = (key: string): number => Number(new RegExp(`[:,]${key}=(\\d+)`).exec(line ?? '')?.[1] ?? 0);
  return { count: field('calls'), total: field('usec') };
}
