/**
 * One coherent statement per load level and one headline per target. A level "kept up" when it
 * tripped no threshold (error rate, latency, rate); the client was "the limit" when the level says
 * so (one probing thread saturated: clientLimit.ts), and then what the level shows is the client's
 * ceiling, so the database's capacity was not reached. The headline never says "kept up at every
 * level" beside a level the client limited.
 */
import type { LoadFigures, LoadLevelFigures } from '../loadResult';
import type { Measurement } from '../result';
import { shortMs } from './shortMs';

export interface LoadLevelVerdict {
  label: string;
  keptUp: boolean;
  limit?: 'client' | 'database';
  /** The level ran for noticeably less than its planned duration (the run stopped in it). */
  cut?: boolean;
  sentence: string;
}

export interface LoadVerdict {
  target: string;
  sentence: string;
  levels: LoadLevelVerdict[];
}

/** A level ran short when it lasted less than this share of its planned duration. */
const CUT_SHARE = 0.9;

const rate = (n: number) => Math.round(n).toLocaleString('en-US');

function levelLabel(load: LoadFigures, level: number): string {
  return load.model === 'open' ? `${rate(level)}/s` : `${level} connection${level === 1 ? '' : 's'}`;
}

function levelVerdict(load: LoadFigures, l: LoadLevelFigures): LoadLevelVerdict {
  const label = levelLabel(load, l.level);
  const keptUp = l.tripped === undefined;
  const limit = l.clientLimited !== undefined ? 'client' : keptUp ? undefined : 'database';
  const cut = l.durationUs < CUT_SHARE * load.durationS * 1e6;
  const latency = l.corrected ?? l.stats;
  const achieved =
    load.model === 'open' && l.starts
      ? `, started ${rate(l.starts.achievedRate)}/s of ${rate(l.level)}/s`
      : '';
  const figures = `${rate(l.throughput)} queries/s${achieved}, p50 ${shortMs(latency.p50Us)} ms`;
  const parts = [
    keptUp ? `${label}: kept up, ${figures}` : `${label}: did not keep up (${l.tripped}), ${figures}`,
  ];
  if (limit === 'client')
    parts.push(`the client was the limit (${l.clientLimited}), so the database's capacity was not reached`);
  else if (limit === 'database') parts.push('the client was not the limit');
  if (cut) parts.push(`cut short: ran ${(l.durationUs / 1e6).toFixed(1)} of ${load.durationS} s`);
  return {
    label,
    keptUp,
    limit,
    cut,
    sentence: `${parts.join('; ')}.`,
  };
}

/** Undefined for a measurement without load figures. */
export function judgeLoad(m: Measurement): LoadVerdict | undefined {
  const load = m.load;
  if (!load) return undefined;
  const levels = load.levels.map((l) => levelVerdict(load, l));
  return { target: m.target, sentence: headline(m.target, load, levels), levels };
}

function headline(target: string, load: LoadFigures, levels: LoadLevelVerdict[]): string {
  const first = levels[0];
  const last = levels[levels.length - 1];
  if (!first || !last) return `${target}: no load level was measured.`;
  const peak = Math.max(...load.levels.map((l) => l.throughput));
  const clientFrom = levels.find((l) => l.limit === 'client');
  const failed = levels.findIndex((l) => !l.keptUp);
  const cut = levels.some((l) => l.cut)
    ? ' The run stopped inside a level: its figures cover only part of it.'
    : '';
  const clientClause = clientFrom
    ? `, but the client was the limit from ${clientFrom.label}: the database's capacity was not reached`
    : '';
  if (failed === -1) {
    const span =
      levels.length === 1
        ? `at ${first.label}`
        : clientFrom
          ? `through ${last.label}`
          : `at every level (${first.label} to ${last.label})`;
    return `${target} kept up ${span}, up to ${rate(peak)} queries/s${clientClause}.${cut}`;
  }
  const failing = levels[failed]!;
  const reason = load.levels[failed]?.tripped ?? 'a threshold tripped';
  const there =
    failing.limit === 'client'
      ? "the client was the limit there, so the database's capacity was not reached"
      : 'the client was not the limit there';
  if (failed === 0)
    return `${target} did not keep up from the first level, ${first.label} (${reason}); ${there}.${cut}`;
  const kept = levels[failed - 1]!;
  const earlierClient =
    clientFrom && levels.indexOf(clientFrom) < failed
      ? `; the client was the limit from ${clientFrom.label}`
      : '';
  return `${target} kept up through ${kept.label} (up to ${rate(peak)} queries/s) and did not keep up at ${failing.label} (${reason}); ${there}${earlierClient}.${cut}`;
}
