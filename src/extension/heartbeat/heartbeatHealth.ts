/**
 * The heartbeat's health, by the shared judgement (src/shared/judgement/judgeHealth.ts) that watch
 * states too: each heartbeat query is one run of one warm-connection (`subsequent`) sample, so the
 * target is up when the last query answered, and its last success carries over the ones that did not.
 */
import { judgeHealth, type TargetHealth } from '../../shared/judgement/judgeHealth';

export interface HeartbeatTick {
  atMs: number;
  ok: boolean;
  /** Why the query failed, redacted. */
  problem?: string;
}

export function heartbeatHealth(
  target: string,
  tick: HeartbeatTick,
  previous: TargetHealth | undefined,
): TargetHealth {
  const [health] = judgeHealth(
    {
      endedAt: new Date(tick.atMs).toISOString(),
      kinds: [
        {
          target,
          kind: 'subsequent',
          measured: tick.ok ? 1 : 0,
          failed: tick.ok ? 0 : 1,
          problem: tick.problem,
        },
      ],
    },
    previous ? [previous] : [],
  );
  return health!;
}
