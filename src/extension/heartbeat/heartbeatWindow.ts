/**
 * The heartbeat's memory: samples of the last minute (or any window), their p50, and the level the
 * judgement gives them (shared/judgement/heartbeatLevel.ts). Pure, time passed in by the caller, so it is tested with a fake clock.
 * Bounded: at most `maxSamples` kept whatever the interval.
 */
import { fromYourApp } from '../../shared/fromYourApp';
import { heartbeatLevel, type HeartbeatLevel } from '../../shared/judgement/heartbeatLevel';
import type { TargetHealth } from '../../shared/judgement/judgeHealth';

export type { HeartbeatLevel } from '../../shared/judgement/heartbeatLevel';

export interface HeartbeatSample {
  atMs: number;
  /** Latency in microseconds; undefined for a failed sample. */
  us?: number;
}

export interface HeartbeatSummary {
  count: number;
  errors: number;
  p50Us?: number;
  level: HeartbeatLevel;
}

export class HeartbeatWindow {
  private samples: HeartbeatSample[] = [];

  constructor(
    private readonly windowMs: number,
    private readonly maxSamples = 1000,
  ) {}

  add(sample: HeartbeatSample): void {
    this.samples.push(sample);
    if (this.samples.length > this.maxSamples) this.samples.splice(0, this.samples.length - this.maxSamples);
  }

  clear(): void {
    this.samples = [];
  }

  /** p50 of the successful samples within the window ending at `nowMs`, and the level it gives. */
  summary(nowMs: number, thresholdUs: number | undefined): HeartbeatSummary {
    const from = nowMs - this.windowMs;
    this.samples = this.samples.filter((s) => s.atMs > from && s.atMs <= nowMs);
    const values = this.samples.flatMap((s) => (s.us === undefined ? [] : [s.us])).sort((a, b) => a - b);
    const errors = this.samples.length - values.length;
    if (values.length === 0)
      return { count: 0, errors, level: heartbeatLevel({ count: 0, errors }, thresholdUs) };
    const p50Us = median(values);
    return {
      count: values.length,
      errors,
      p50Us,
      level: heartbeatLevel({ count: values.length, errors, p50Us }, thresholdUs),
    };
  }
}

/** The lower middle value for an even count: a latency that was actually observed. */
function median(sorted: readonly number[]): number {
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** What the heartbeat knows beside its window of samples. */
export interface HeartbeatContext {
  lastError?: string;
  /**
   * With `dbprobe.appRttMs` (or `dbprobe.appLocation`: `place`, whose measured floor is the RTT) set and
   * a saved run to take turns and floor from: the p50 projected there.
   */
  projected?: { us: number; appRttMs: number; turns: number; floorUs: number; place?: string };
  /** `dbprobe.appLocation` names a place no saved run from which measured this target. */
  missingPlace?: string;
  /** The shared health judgement (judgeHealth) after the last query: stated first. */
  health?: Pick<TargetHealth, 'up' | 'sentence'>;
}

/**
 * The status bar's words for a summary: names and figures only, never a connection string. The
 * target's health (the shared judgement's up/down and its sentence) comes first; then the p50 here
 * and, with where the app runs set, at the app's RTT as the user set it, in the CodeLens's words
 * ("≈ 12.4 ms from your app (12 ms RTT)": src/shared/fromYourApp.ts).
 */
export function describeHeartbeat(
  target: { name: string; driver: string },
  summary: HeartbeatSummary,
  settings: { intervalSeconds: number; warnAboveMs: number },
  context: HeartbeatContext = {},
): { text: string; tooltip: string } {
  const { lastError, projected, missingPlace, health } = context;
  const measured = summary.p50Us === undefined ? undefined : formatShortMs(summary.p50Us);
  const atApp = projected
    ? fromYourApp(
        formatShortMs(projected.us),
        projected.place !== undefined ? formatShortMs(projected.appRttMs * 1000) : `${projected.appRttMs} ms`,
        projected.place,
      )
    : undefined;
  const p50 = measured !== undefined && atApp ? `${measured} here · ${atApp}` : measured;
  const down = health?.up === false;
  const level = down ? 'failing' : summary.level;
  const icon = { idle: '$(sync~spin)', ok: '$(pulse)', warning: '$(warning)', failing: '$(error)' }[level];
  const state = down ? 'down' : (p50 ?? (summary.level === 'failing' ? 'failing' : '…'));
  const text = `${icon} ${target.name} ${state}`;
  const lines = [
    ...(health ? [`${health.sentence}.`] : []),
    `DB Probe heartbeat on ${target.name} (${target.driver}): one query on a warm connection every ${settings.intervalSeconds} s.`,
    p50 === undefined
      ? 'No successful sample in the last minute yet.'
      : `p50 over the last minute: ${p50} (${summary.count} samples${summary.errors > 0 ? `, ${summary.errors} failed` : ''}).`,
    settings.warnAboveMs > 0
      ? `Turns to a warning above ${settings.warnAboveMs} ms (dbprobe.heartbeat.warnAboveMs).`
      : 'No warning threshold set (dbprobe.heartbeat.warnAboveMs).',
  ];
  if (projected && measured !== undefined) {
    const where =
      projected.place !== undefined
        ? `the ${projected.place} runner, whose measured RTT to ${target.name} is ${formatShortMs(projected.appRttMs * 1000)}`
        : `dbprobe.appRttMs = ${projected.appRttMs} ms`;
    lines.push(
      `At your app (${where}): ≈ ${formatShortMs(projected.us)}, the p50 minus ${projected.turns} turn(s) x this path's ${formatShortMs(projected.floorUs)} floor, plus ${projected.turns} x ${projected.place !== undefined ? formatShortMs(projected.appRttMs * 1000) : `${projected.appRttMs} ms`}.`,
    );
  } else if (missingPlace !== undefined)
    lines.push(
      `No projection: no saved run from the ${missingPlace} runner (dbprobe.appLocation) has measured ${target.name}; probe it from there once to see it.`,
    );
  if (lastError) lines.push(`Last error: ${lastError}`);
  lines.push('Click to pick another target; "DB Probe: Stop Heartbeat" turns it off.');
  return { text, tooltip: lines.join('\n') };
}

/** The app's RTT as the user set it ("12 ms"), or the runner place whose floor stands for it. */
function formatShortMs(us: number): string {
  const ms = us / 1000;
  return `${ms < 0.1 ? ms.toFixed(3) : ms < 100 ? ms.toFixed(1) : Math.round(ms)} ms`;
}
