/**
 * One coherent statement per load level and one headline per target. A level "kept up" when it ran
 * its whole duration and tripped no threshold (error rate, latency, rate); a level a cancel or the
 * run's limit cut (LoadLevelFigures.cut) is "not judged" unless its own samples already failed a
 * threshold, so the headline never says "kept up" of it. How long a level lasted says nothing by
 * itself: a low-rate level ends with its last answer, well before its nominal end. The client was
 * "the limit" when the level says so (one probing thread saturated: clientLimit.ts), and then what
 * the level shows is the client's ceiling, so the database's capacity was not reached, unless the
 * level failed on the database's own refusals ("too many clients"): that is the database's limit,
 * however busy the client was. The headline never says "kept up at every level" beside a level the
 * client limited.
 */
import type { LoadFigures, LoadLevelFigures } from '../loadResult';
import type { Measurement } from '../result';
import { listText, shortMs } from './shortMs';

export interface LoadLevelVerdict {
  label: string;
  keptUp: boolean;
  limit?: 'client' | 'database';
  /** The level was cut (a cancel, the run's time limit) before its planned duration. */
  cut?: boolean;
  /** Cut with nothing failed in its samples: neither "kept up" nor "did not keep up" is said of it. */
  notJudged?: boolean;
  /** The database turned connections away at this level (its connection limit): what it said. */
  refused?: string;
  sentence: string;
}

export interface LoadVerdict {
  target: string;
  sentence: string;
  levels: LoadLevelVerdict[];
}

const rate = (n: number) => Math.round(n).toLocaleString('en-US');
/** An asked rate as given: 0.5/s stays 0.5/s. */
const askedRate = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 3 });

function levelLabel(load: LoadFigures, level: number): string {
  return load.model === 'open' ? `${askedRate(level)}/s` : `${level} connection${level === 1 ? '' : 's'}`;
}

const refusedWords = (said: string, where = '') =>
  `the database turned connections away${where} ("${said}"): the limit was its connection limit, not the client`;

const cutWords = (l: LoadLevelFigures, load: LoadFigures) =>
  `cut after ${(l.durationUs / 1e6).toFixed(1)} of ${load.durationS} s`;

/**
 * What PostgreSQL, MySQL/MariaDB and poolers say when they turn a session away for their connection
 * limit: errors the client's load caused, but the database's limit, whatever the client's CPU.
 */
const CONNECTION_LIMIT =
  /too many (clients|connections)|remaining connection slots|connection limit|max_connections|max_user_connections/i;

/** The first connection-limit refusal among the measurement's errors, if any. */
function refusalOf(m: Measurement): string | undefined {
  if (m.stats.errors === 0) return undefined;
  return m.firstErrors.find((f) => CONNECTION_LIMIT.test(f.message))?.message.slice(0, 120);
}

function levelVerdict(load: LoadFigures, l: LoadLevelFigures, refusal?: string): LoadLevelVerdict {
  const label = levelLabel(load, l.level);
  const cut = l.cut === true;
  const notJudged = cut && l.tripped === undefined;
  const keptUp = l.tripped === undefined && !cut;
  // A level that failed on its errors while the database refused connections met the database's limit.
  const refused = l.tripped !== undefined && l.stats.errors > 0 ? refusal : undefined;
  const limit =
    refused !== undefined
      ? 'database'
      : l.clientLimited !== undefined
        ? 'client'
        : l.tripped !== undefined
          ? 'database'
          : undefined;
  const latency = l.corrected ?? l.stats;
  const achieved =
    load.model === 'open' && l.starts
      ? `, started ${rate(l.starts.achievedRate)}/s of ${askedRate(l.level)}/s`
      : '';
  const figures = `${rate(l.throughput)} queries/s${achieved}, p50 ${shortMs(latency.p50Us)} ms`;
  const parts = [
    keptUp
      ? `${label}: kept up, ${figures}`
      : notJudged
        ? `${label}: not judged (${cutWords(l, load)}), ${figures} over the part that ran`
        : `${label}: did not keep up (${l.tripped}), ${figures}`,
  ];
  if (refused !== undefined) parts.push(refusedWords(refused));
  else if (limit === 'client')
    parts.push(`the client was the limit (${l.clientLimited}), so the database's capacity was not reached`);
  else if (limit === 'database') parts.push('the client was not the limit');
  if (cut && !notJudged) parts.push(`cut short: ${cutWords(l, load)}`);
  return {
    label,
    keptUp,
    limit,
    ...(cut ? { cut } : {}),
    ...(notJudged ? { notJudged } : {}),
    ...(refused !== undefined ? { refused } : {}),
    sentence: `${parts.join('; ')}.`,
  };
}

/** Undefined for a measurement without load figures. */
export function judgeLoad(m: Measurement): LoadVerdict | undefined {
  const load = m.load;
  if (!load) return undefined;
  const refusal = refusalOf(m);
  const levels = load.levels.map((l) => levelVerdict(load, l, refusal));
  return { target: m.target, sentence: headline(m.target, load, levels), levels };
}

function headline(target: string, load: LoadFigures, verdicts: LoadLevelVerdict[]): string {
  // Only levels that were judged speak for the target; a cut one is named apart.
  const judged = load.levels
    .map((figures, k) => ({ figures, verdict: verdicts[k]! }))
    .filter(({ verdict }) => !verdict.notJudged);
  const notJudged = verdicts.filter((v) => v.notJudged).map((v) => v.label);
  const cut =
    notJudged.length > 0
      ? ` The run stopped inside ${listText(notJudged)}: not judged, its figures cover only part of it.`
      : '';
  const first = judged[0];
  const last = judged[judged.length - 1];
  if (!first || !last) {
    if (notJudged.length === 0) return `${target}: no load level was measured.`;
    return `${target}: not judged.${cut}`;
  }
  const levels = judged.map((j) => j.verdict);
  const peak = Math.max(...judged.map((j) => j.figures.throughput));
  const clientFrom = levels.find((l) => l.limit === 'client');
  const failed = levels.findIndex((l) => !l.keptUp);
  const finished = notJudged.length > 0 ? ' it finished' : '';
  const clientClause = clientFrom
    ? `, but the client was the limit from ${clientFrom.label}: the database's capacity was not reached`
    : '';
  if (failed === -1) {
    const span =
      levels.length === 1
        ? `at ${first.verdict.label}`
        : clientFrom
          ? `through ${last.verdict.label}`
          : `at every level${finished} (${first.verdict.label} to ${last.verdict.label})`;
    return `${target} kept up ${span}, up to ${rate(peak)} queries/s${clientClause}.${cut}`;
  }
  const failing = judged[failed]!;
  const reason = failing.figures.tripped ?? 'a threshold tripped';
  const there =
    failing.verdict.refused !== undefined
      ? refusedWords(failing.verdict.refused, ' there')
      : failing.verdict.limit === 'client'
        ? "the client was the limit there, so the database's capacity was not reached"
        : 'the client was not the limit there';
  if (failed === 0)
    return `${target} did not keep up from the first level, ${failing.verdict.label} (${reason}); ${there}.${cut}`;
  const kept = levels[failed - 1]!;
  const earlierClient =
    clientFrom && levels.indexOf(clientFrom) < failed
      ? `; the client was the limit from ${clientFrom.label}`
      : '';
  return `${target} kept up through ${kept.label} (up to ${rate(peak)} queries/s) and did not keep up at ${failing.verdict.label} (${reason}); ${there}${earlierClient}.${cut}`;
}
