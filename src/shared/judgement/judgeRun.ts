/**
 * The one judgement of a run that every surface states first (the panel's verdict strip, the
 * Markdown, the job summary, the CLI's stderr, CodeLens, heartbeat): for each question a user
 * comes with (a new connection, a warm query, a request of k queries; here and at the app's RTT),
 * the ranking of comparable targets in tie groups, why each established gap is there, and a
 * statement per load level. Derived on read from one result, like differences.ts; pure and free of
 * Node, so the webview bundles the same copy.
 *
 * Ties are decided by the one comparison rule (differences.ts `judgeDifference`, via gapEvidence.ts),
 * the rule the Differences table and the change gate use, per-kind spreads included.
 */
import { busyHost, type BusyHost } from './busyHost';
import { compareTargets, judgeDifference } from './differences';
import { supports } from '../percentileSupport';
import {
  DEFAULT_PROJECTED_QUERIES,
  projectAt,
  projectRequestAt,
  projectRun,
  type KindProjection,
  type ProjectedKind,
} from '../projection';
import { findOvertakes, type Overtake } from './projectionOvertakes';
import { listText, shortMs } from './shortMs';
import type { RunResult } from '../result';
import { aloneFigures, type AloneFigures } from './aloneFigures';
import { gapEstablished, gapEvidence, type GapContext, type QuestionPart } from './gapEvidence';
import { layerOverheads, type LayerOverhead } from './layerOverhead';
import { judgeLoad, type LoadVerdict } from './loadVerdict';
import { groupsText, tieGroups } from './tieGroups';
import { gapWhy, type Question, type WhyContext } from './why';
import { workloadClasses } from './workloadClass';
import { findCrossovers, REQUEST_CROSSOVER_QUERIES, type CrossoverFindings } from './crossovers';
import { expectedLines } from './expected';
import { sameWorkload, sectionScope, type SectionScope } from './sectionScope';
import { requestOvertakeRtt } from './requestOvertake';
import { shortenedNote } from './shortenedCount';
import { crossoverShort, firstClause, rankingShort, type ShortRanking } from './shortVerdict';

export type { AloneFigures } from './aloneFigures';
export type { LoadLevelVerdict, LoadVerdict } from './loadVerdict';
export type { Question } from './why';

export interface JudgeOptions {
  /** The app's RTT to the database (ms): adds each question's ranking there, projected. */
  appRttMs?: number;
  /**
   * The app runs here (`appRttMs` 0): the figures measured here are its answer, so no crossover asks
   * where it runs.
   */
  appHere?: boolean;
  /** Queries in a request (initial + (k - 1) x subsequent); DEFAULT_PROJECTED_QUERIES (5). */
  queries?: number;
}

export interface RankedTarget {
  target: string;
  /** The figure ranked: measured here, or projected at the app RTT for an `app` ranking. */
  p50Us: number;
  /** Absent when the samples cannot support it (percentileSupport.ts), and for projected figures. */
  p99Us?: number;
  /** The projected p50 at the app RTT, when an app RTT was given and the target is projectable. */
  appP50Us?: number;
  /** Its successful samples (the fewest of the question's kinds): what a tie rests on. */
  samples: number;
}

export interface Ranking {
  question: Question;
  at: 'here' | 'app';
  /** Set when at === 'app'. */
  rttMs?: number;
  /** The workload class's label (workloadClass.ts): targets of different classes are never ranked together. */
  workload: string;
  /** Tie groups, fastest first. */
  groups: RankedTarget[][];
  /** E.g. "New connection here: planetscale-http fastest (1.2 ms); pg and pg-tls tied behind (3.4, 3.6 ms)." */
  sentence: string;
  /** The sentence in one line, the winner first: "planetscale-http fastest here (new connection, 1.2 ms)". */
  short: string;
  /** One line per established gap (between consecutive groups' fastest members). */
  why: string[];
  /**
   * Gaps the interval establishes but the host may explain (the slower side's client waited
   * enough CPU wait to explain it, in a sequential run): said before the ranking, whose groups keep
   * those targets tied.
   */
  notAttributable: string[];
}

export interface RunJudgement {
  /**
   * The verdict lines every surface states first, in this order: for where the app runs first (its
   * rankings, or with no app location the crossovers that make the answer depend on it), then here.
   */
  lines: string[];
  /**
   * The first line in one line, the winner first (shortVerdict.ts), for a surface that shows only a
   * line's first words (the Runs view's row, the status bar); absent when there is no line.
   */
  short?: string;
  /**
   * With no app location: per question whose fastest target here is overtaken at some RTT (an
   * established overtake), the line that says so instead of a ranking that flips.
   */
  crossovers: string[];
  rankings: Ranking[];
  /** A target with nothing to rank it against: its own figures, said where a ranking would be. */
  alone: AloneFigures[];
  load: LoadVerdict[];
  /** What each ORM layer adds over the raw driver it was measured beside (layerOverhead.ts). */
  layers: LayerOverhead[];
  /** Figures the host's CPU wait raised beyond their own interval (busyHost.ts); absent when none. */
  busyHost?: BusyHost;
  /** What the verdict leaves out and why (a target alone in its class, one not projectable, ...). */
  notes: string[];
  /**
   * What the sections below the verdict may set against each other: the targets of the classes it
   * ranks, the others apart with one line why (sectionScope.ts).
   */
  scope: SectionScope;
  /**
   * The request-of-k crossovers here (1..REQUEST_CROSSOVER_QUERIES queries), decided by the rule the
   * request ranking uses and never contradicting it (crossovers.ts): every section that names one
   * states these.
   */
  requestCrossovers: CrossoverFindings & { maxQueries: number };
}

const QUESTIONS: { question: Question; title: string; parts: (k: number) => QuestionPart[] }[] = [
  { question: 'new connection', title: 'New connection', parts: () => [{ kind: 'initial', weight: 1 }] },
  { question: 'warm query', title: 'Warm query', parts: () => [{ kind: 'subsequent', weight: 1 }] },
  {
    question: 'request',
    title: 'Request',
    parts: (k) => [
      { kind: 'initial', weight: 1 },
      { kind: 'subsequent', weight: k - 1 },
    ],
  },
];

/** The judgement's options from a surface's reading of where the app runs (one mapping for all). */
export function judgeOptionsOf(location: { appRttMs?: number; appHere?: boolean }): JudgeOptions {
  if (location.appRttMs !== undefined) return { appRttMs: location.appRttMs };
  return location.appHere ? { appHere: true } : {};
}

export function judgeRun(result: RunResult, options: JudgeOptions = {}): RunJudgement {
  const queries = Math.max(1, Math.round(options.queries ?? DEFAULT_PROJECTED_QUERIES));
  const appRttUs = options.appRttMs !== undefined ? options.appRttMs * 1000 : undefined;
  const { comparisons, skipped } = compareTargets(result);
  const minEffect = result.plan.minEffect;
  const projections = projectRun(result, { rttsMs: [], maxQueries: 1 });
  const projectionOf = (target: string, kind: ProjectedKind): KindProjection | undefined =>
    projections.targets.find((t) => t.target === target)?.[kind];
  const gaps: GapContext = { comparisons, projectionOf, ...(minEffect ? { minEffect } : {}) };
  const why: WhyContext = {
    measurements: result.measurements,
    projectionOf,
    overtakes: findOvertakes(result, projections),
    queries,
  };
  const measured = (target: string, kind: ProjectedKind) =>
    result.measurements.find((m) => m.target === target && m.kind === kind && m.stats.count > 0);
  const notes: string[] = [];
  const rankings: Ranking[] = [];
  const alone: AloneFigures[] = [];
  const crossovers: string[] = [];
  const crossoverShorts: string[] = [];
  const classes = workloadClasses(result.targets);
  const named = classes.length > 1;
  for (const { workload, targets } of classes) {
    if (targets.length < 2) {
      notes.push(`${targets[0]} is the only target running ${workload.label}: nothing to rank it against.`);
      const target = targets[0]!;
      const app =
        appRttUs !== undefined
          ? {
              rttMs: options.appRttMs!,
              p50Us: (kind: ProjectedKind) =>
                appFigure(target, [{ kind, weight: 1 }], projectionOf, appRttUs),
            }
          : undefined;
      const figures = aloneFigures(
        target,
        { label: workload.label, named },
        { measured, ...(app ? { app } : {}) },
      );
      if (figures) alone.push(figures);
      continue;
    }
    // A request of one query is the new connection: not asked twice.
    for (const q of QUESTIONS.filter((x) => x.question !== 'request' || queries > 1)) {
      const parts = q.parts(queries).filter((p) => p.weight > 0);
      const here = targets.flatMap((target): RankedTarget[] => {
        const ms = parts.map((p) => measured(target, p.kind));
        if (ms.some((m) => m === undefined)) return [];
        const p50Us = parts.reduce((sum, p, i) => sum + p.weight * ms[i]!.stats.p50Us, 0);
        const only = parts.length === 1 ? ms[0]! : undefined;
        const app = appRttUs !== undefined ? appFigure(target, parts, projectionOf, appRttUs) : undefined;
        return [
          {
            target,
            p50Us,
            ...(only && supports(only.stats.count, 'p99Us') ? { p99Us: only.stats.p99Us } : {}),
            appP50Us: app,
            samples: Math.min(...ms.map((m) => m!.stats.count)),
          },
        ];
      });
      if (here.length < 2) continue;
      const title = q.question === 'request' ? `Request of ${queries} queries` : q.title;
      const label = named ? ` (${workload.label})` : '';
      const question = title.charAt(0).toLowerCase() + title.slice(1);
      const shortAt = (where: string) => ({
        question,
        where,
        ...(named ? { workload: workload.label } : {}),
      });
      const hereRanking = rank(
        q.question,
        'here',
        `${title} here${label}`,
        workload.label,
        here,
        parts,
        gaps,
        why,
        shortAt('here'),
      );
      rankings.push(hereRanking);
      if (appRttUs === undefined) {
        const crossover = options.appHere
          ? undefined
          : crossoverLine(
              `${title}${label}`,
              hereRanking,
              shortAt('here'),
              overtakeRtt(q.question, parts, gaps, why.overtakes),
            );
        if (crossover) {
          crossovers.push(crossover.line);
          crossoverShorts.push(crossover.short);
        }
        continue;
      }
      const atApp = here.flatMap((e) =>
        e.appP50Us === undefined
          ? []
          : [{ target: e.target, p50Us: e.appP50Us, appP50Us: e.appP50Us, samples: e.samples }],
      );
      const left = here.filter((e) => e.appP50Us === undefined).map((e) => e.target);
      if (left.length > 0)
        notes.push(
          `${title} at ${options.appRttMs} ms RTT leaves out ${left.join(', ')}: no counted round trips or measured RTT to project from.`,
        );
      if (atApp.length < 2) continue;
      const ranking = rank(
        q.question,
        'app',
        `${title} at ${options.appRttMs} ms RTT (projected)${label}`,
        workload.label,
        atApp,
        parts,
        gaps,
        why,
        shortAt(`at ${options.appRttMs} ms RTT`),
        appRttUs,
      );
      rankings.push({ ...ranking, rttMs: options.appRttMs! });
    }
  }
  for (const s of skipped) {
    if (s.kind !== 'initial' && s.kind !== 'subsequent') continue;
    const m = result.measurements.find((x) => x.target === s.target && x.kind === s.kind);
    // A kind with no successful sample is not ranked at all: say it failed, not that it ties.
    if (m && m.stats.count === 0) {
      const first = m.firstErrors[0];
      notes.push(
        `${s.target} (${s.kind}) is not ranked: every sample failed${first ? ` (${first.class}: ${first.message})` : ''}.`,
      );
    } else if (!alone.some((a) => a.target === s.target))
      // A target alone in its workload was never to be compared: its own figures are the verdict.
      notes.push(`${s.target} (${s.kind}) not compared: ${s.reason}; it stays tied with the group above it.`);
  }
  const p99Left = rankings.some(
    (r) => r.at === 'here' && r.question !== 'request' && r.groups.flat().some((e) => e.p99Us === undefined),
  );
  if (p99Left)
    notes.push(
      'p99 is given only from 100 successful samples: with fewer it is the largest sample under another name.',
    );
  const shortened = shortenedNote(result);
  if (shortened) notes.push(shortened);
  const load = result.measurements.flatMap((m) => judgeLoad(m) ?? []);
  const layers = layerOverheads(result);
  const host = busyHost(result);
  // Each line with its one-line form: a line the host holds back says its ranking's answer in short.
  const sayRankings = (at: Ranking['at']) =>
    rankings
      .filter((r) => r.at === at)
      .flatMap((r) => [...r.notAttributable, r.sentence].map((line) => ({ line, short: r.short })));
  const others = [
    ...alone.map((a) => a.sentence),
    ...load.map((l) => l.sentence),
    ...layers.map((l) => l.sentence),
    ...(host ? [host.sentence] : []),
  ];
  const said = [
    ...crossovers.map((line, i) => ({ line, short: crossoverShorts[i]! })),
    ...sayRankings('app'),
    ...sayRankings('here'),
    ...others.map((line) => ({ line, short: firstClause(line) })),
  ];
  const lines = said.map((s) => s.line);
  const request = rankings.filter((r) => r.question === 'request' && r.at === 'here');
  const requestCrossovers = {
    maxQueries: REQUEST_CROSSOVER_QUERIES,
    ...findCrossovers(expectedLines(result, REQUEST_CROSSOVER_QUERIES), {
      gaps,
      transports: new Map(result.targets.map((t) => [t.name, t.transport])),
      comparable: sameWorkload(result),
      // Each class has its own request ranking: a pair is held to the one of its class.
      ...(request.length > 0
        ? {
            verdict: { queries, groups: request.flatMap((r) => r.groups.map((g) => g.map((e) => e.target))) },
          }
        : {}),
    }),
  };
  const scope = sectionScope(result);
  return {
    lines,
    ...(said[0] ? { short: said[0].short } : {}),
    crossovers,
    rankings,
    alone,
    load,
    layers,
    notes,
    scope,
    requestCrossovers,
    ...(host ? { busyHost: host } : {}),
  };
}

/**
 * "New connection: local-mysql fastest here (3.5 ms); planetscale-http from 2.9 ms RTT on: set where
 * your app runs." Said when no app location is known and an established overtake takes the lead from
 * the fastest group here: the ranking here would flip for an app far enough away. The lowest such
 * RTT is named. A request of k queries says so too: its answer is the one an app making k queries a
 * request gets, and it can flip where neither kind's does.
 */
function crossoverLine(
  title: string,
  here: Ranking,
  short: Omit<ShortRanking, 'groups'>,
  overtakeRtt: (winner: string, lead: string) => number | undefined,
): { line: string; short: string } | undefined {
  const first = here.groups[0] ?? [];
  const leads = first.map((e) => e.target);
  let best: { winner: string; rttUs: number } | undefined;
  for (const winner of here.groups.flat().map((e) => e.target)) {
    // The winner must overtake every other target of the fastest group: from the last crossing on.
    const crossings = leads.filter((lead) => lead !== winner).map((lead) => overtakeRtt(winner, lead));
    if (crossings.length === 0 || crossings.some((r) => r === undefined)) continue;
    const rttUs = Math.max(...(crossings as number[]));
    if (!best || rttUs < best.rttUs) best = { winner, rttUs };
  }
  const overtake = best;
  if (!overtake) return undefined;
  const fastest = `${listText(first.map((e) => e.target))} ${first.length > 1 ? 'tied ' : ''}fastest here (${first.map((e) => shortMs(e.p50Us)).join(', ')} ms)`;
  return {
    line: `${title}: ${fastest}; ${overtake.winner} from ${shortMs(overtake.rttUs)} ms RTT on: set where your app runs.`,
    short: crossoverShort({ ...short, groups: here.groups }, overtake),
  };
}

/**
 * Where `winner` takes the lead from `lead` on one question: a kind's established overtake (the
 * crossing of its p50 lines), or for a request the RTT its ranking at the app would first name it ahead.
 */
function overtakeRtt(
  question: Question,
  parts: readonly QuestionPart[],
  gaps: GapContext,
  overtakes: readonly Overtake[],
): (winner: string, lead: string) => number | undefined {
  if (question === 'request') return (winner, lead) => requestOvertakeRtt(winner, lead, parts, gaps);
  const kind: ProjectedKind = question === 'warm query' ? 'subsequent' : 'initial';
  return (winner, lead) =>
    overtakes.find(
      (o) => o.kind === kind && o.state === 'established' && o.winner === winner && o.loser === lead,
    )?.rttUs;
}

function appFigure(
  target: string,
  parts: readonly QuestionPart[],
  projectionOf: GapContext['projectionOf'],
  rttUs: number,
): number | undefined {
  const initial = projectionOf(target, 'initial');
  const subsequent = projectionOf(target, 'subsequent');
  if (parts.length === 2)
    return initial && subsequent
      ? projectRequestAt(initial, subsequent, 1 + parts[1]!.weight, rttUs)
      : undefined;
  const k = projectionOf(target, parts[0]!.kind);
  return k ? projectAt(k, rttUs) : undefined;
}

function rank(
  question: Question,
  at: 'here' | 'app',
  title: string,
  workload: string,
  entries: RankedTarget[],
  parts: readonly QuestionPart[],
  gaps: GapContext,
  why: WhyContext,
  short: Omit<ShortRanking, 'groups'>,
  rttUs?: number,
): Ranking {
  const groups = tieGroups(entries, (faster, slower) => gapEstablished(faster, slower, parts, gaps, rttUs));
  const reasons = groups.slice(1).map((g, i) => {
    const faster = groups[i]![0]!.target;
    const slower = g[0]!.target;
    const evidence = gapEvidence(faster, slower, parts, gaps, rttUs);
    return gapWhy(faster, slower, question, why, evidence ? { parts, evidence } : undefined);
  });
  const notAttributable = groups.flatMap((g) =>
    g.slice(1).flatMap((entry) => {
      const evidence = gapEvidence(g[0]!.target, entry.target, parts, gaps, rttUs);
      const heldByHost = evidence?.host && judgeDifference(evidence).notEstablishedBy === 'host';
      return heldByHost
        ? [`${title}: ${entry.target} behind ${g[0]!.target} not attributable: ${evidence.host!.sentence}.`]
        : [];
    }),
  );
  const only = groups.length === 1 ? groups[0]! : undefined;
  const tiedOn = only && only.length > 1 ? Math.min(...only.map((e) => e.samples)) : undefined;
  return {
    question,
    at,
    workload,
    groups,
    sentence: `${title}: ${groupsText(groups, tiedOn)}.`,
    short: rankingShort({ ...short, groups }),
    why: reasons,
    notAttributable,
  };
}
