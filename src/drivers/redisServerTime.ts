/**
 * Redis's own time for a command, from `INFO commandstats` once before and once after a kind's
 * samples: the delta of the command's `usec` over the delta of its `calls` is the mean time the
 * server spent executing it (not reading or writing the socket), over every client that ran it.
 */
import type { ServerTimeRun } from '../core/driver';
import type { ServerTime } from '../shared/serverTime';

export interface RedisCaller {
  call(command: string, ...args: string[]): Promise<unknown>;
}

interface CommandStats {
  calls: number;
  usec: number;
}

export async function redisServerTimeRun(client: RedisCaller, command: string): Promise<ServerTimeRun> {
  const name = command.toLowerCase();
  const before = await commandStats(client, name);
  return {
    finish: async (): Promise<ServerTime> => {
      const after = await commandStats(client, name);
      const calls = after.calls - before.calls;
      if (!(calls > 0))
        return { note: `INFO commandstats counted no ${name} call over the samples`, source: 'commandstats' };
      return {
        p50Us: Math.round((after.usec - before.usec) / calls),
        source: 'commandstats',
        samples: calls,
        figure: 'mean',
        note: `${name}'s execution in the server, over every client's calls during the samples`,
      };
    },
  };
}

/** `cmdstat_ping:calls=10,usec=25,usec_per_call=2.50,...` for one command; zeros when not yet run. */
async function commandStats(client: RedisCaller, name: string): Promise<CommandStats> {
  const info = String(await client.call('INFO', 'commandstats'));
  const line = info.split(/\r?\n/).find((l) => l.startsWith(`cmdstat_${name}:`));
  const field = (key: string): number => Number(new RegExp(`[:,]${key}=(\\d+)`).exec(line ?? '')?.[1] ?? 0);
  return { calls: field('calls'), usec: field('usec') };
}
