/**
 * Why one target is ahead of another, from what the run counted: the database's own time (first when
 * it is most of the gap), round trips (the projection's turns: TCP handshake included), where the
 * lines cross as the RTT grows, TLS, the connect phases and the client's own CPU. Each part is said
 * only when the run measured it and its difference is supported; nothing is guessed.
 */
import { connectAnatomy, PHASE_LABELS } from '../connectPhases';
import { databaseGap, type DatabaseGap } from './databaseGap';
import type { DifferenceEvidence } from './differences';
import type { QuestionPart } from './gapEvidence';
import type { KindProjection, ProjectedKind } from '../projection';
import type { Overtake } from './projectionOvertakes';
import type { Measurement } from '../result';
import { shortMs } from './shortMs';

export type Question = 'new connection' | 'warm query' | 'request';

export interface WhyContext {
  measurements: readonly Measurement[];
  projectionOf: (target: string, kind: ProjectedKind) => KindProjection | undefined;
  overtakes: readonly Overtake[];
  /** Queries in a request. */
  queries: number;
}

/** Turns and local work of a question: a request sums its kinds (initial + (k - 1) x subsequent). */
function lineOf(
  target: string,
  question: Question,
  c: WhyContext,
): { turns: number; localUs: number } | undefined {
  const i = c.projectionOf(target, 'initial');
  const s = c.projectionOf(target, 'subsequent');
  if (question === 'new connection') return i;
  if (question === 'warm query') return s;
  return i && s
    ? { turns: i.turns + (c.queries - 1) * s.turns, localUs: i.localUs + (c.queries - 1) * s.localUs }
    : undefined;
}

const trips = (n: number) => `${n} round trip${n === 1 ? '' : 's'}`;

function turnsPart(faster: string, slower: string, question: Question, c: WhyContext): string | undefined {
  const f = lineOf(faster, question, c);
  const s = lineOf(slower, question, c);
  if (!f || !s) return undefined;
  const per =
    question === 'new connection'
      ? 'for a new connection'
      : question === 'warm query'
        ? 'per query'
        : `for a request of ${c.queries} queries`;
  const counts = `${faster}: ${trips(f.turns)} ${per}, ${slower} ${s.turns}`;
  if (f.turns === s.turns)
    return `${faster} and ${slower}: ${trips(f.turns)} each ${per}, so the gap is local work, the same at every RTT`;
  const overtake =
    question === 'request'
      ? undefined
      : c.overtakes.find(
          (o) =>
            o.kind === kindOf(question) &&
            [o.winner, o.loser].includes(faster) &&
            [o.winner, o.loser].includes(slower),
        );
  const noise = overtake?.state === 'noise' ? ' (within noise)' : '';
  if (f.turns < s.turns) {
    if (f.localUs <= s.localUs) return `${counts}: ahead at every RTT`;
    const rttUs = (f.localUs - s.localUs) / (s.turns - f.turns);
    return `${counts}: ahead from ${shortMs(rttUs)} ms RTT on${noise}`;
  }
  const rttUs = (s.localUs - f.localUs) / (f.turns - s.turns);
  return `${counts}: ${slower} ahead from ${shortMs(rttUs)} ms RTT on${noise}`;
}

function kindOf(question: Question): ProjectedKind {
  return question === 'warm query' ? 'subsequent' : 'initial';
}

/** The connect step whose p50 differs most between the two, when both were split into phases. */
function phasePart(faster: string, slower: string, c: WhyContext): string | undefined {
  const anatomy = (t: string) => {
    const m = c.measurements.find((x) => x.target === t && x.kind === 'initial');
    return m ? connectAnatomy(m) : undefined;
  };
  const a = anatomy(faster);
  const b = anatomy(slower);
  if (!a || !b) return undefined;
  let best: { label: string; aUs: number; bUs: number } | undefined;
  for (const step of a.steps) {
    const other = b.steps.find((x) => x.step === step.step);
    const aUs = step.p50Us ?? 0;
    const bUs = other?.p50Us ?? 0;
    if (step.p50Us === undefined && other?.p50Us === undefined) continue;
    if (!best || Math.abs(bUs - aUs) > Math.abs(best.bUs - best.aUs))
      best = { label: PHASE_LABELS[step.step], aUs, bUs };
  }
  if (!best || best.aUs === best.bUs) return undefined;
  const tls = (t: string) =>
    c.measurements.find((x) => x.target === t && x.kind === 'initial')?.wire?.tlsVersion;
  const named = (t: string, us: number) =>
    us === 0 ? `${t} none` : `${t} ${shortMs(us)} ms${best!.label === 'TLS' && tls(t) ? ` (${tls(t)})` : ''}`;
  return `${best.label}: ${named(faster, best.aUs)}, ${named(slower, best.bUs)}`;
}

/** The client's own CPU per connect, when both counted it and it differs by more than a quarter. */
function cpuPart(faster: string, slower: string, c: WhyContext): string | undefined {
  const cpu = (t: string) =>
    c.measurements.find((x) => x.target === t && x.kind === 'initial')?.wire?.clientCpuUs;
  const a = cpu(faster);
  const b = cpu(slower);
  if (a === undefined || b === undefined || Math.abs(a - b) <= 0.25 * Math.max(a, b)) return undefined;
  return `client CPU per connect: ${faster} ${shortMs(a)} ms, ${slower} ${shortMs(b)} ms`;
}

/** The established gap a why explains: the question's kinds and the evidence that established it. */
export interface GapOf {
  parts: readonly QuestionPart[];
  evidence: DifferenceEvidence;
}

/**
 * "pg: the query itself takes 38 ms in the database, neon 0.10 ms: 38 of the 40 ms gap" when the
 * database is most of the gap; "database time: pg 5.0 ms, neon 0.10 ms: 4.9 of the 12 ms gap" when
 * it is a smaller part. Nothing when a side gave none or the difference is not supported.
 */
function databaseText(faster: string, slower: string, question: Question, d: DatabaseGap, queries: number) {
  const share = `${shortMs(d.diffUs)} of the ${shortMs(d.gapUs)} ms gap`;
  if (!d.most)
    return `database time: ${slower} ${shortMs(d.slowerUs)} ms, ${faster} ${shortMs(d.fasterUs)} ms: ${share}`;
  const what =
    question === 'new connection'
      ? 'the first query takes'
      : question === 'warm query'
        ? 'the query itself takes'
        : `the request's ${queries} queries take`;
  return `${slower}: ${what} ${shortMs(d.slowerUs)} ms in the database, ${faster} ${shortMs(d.fasterUs)} ms: ${share}`;
}

/** One line on why `faster` is ahead of `slower` on the question (`gap`: the evidence it rests on). */
export function gapWhy(
  faster: string,
  slower: string,
  question: Question,
  c: WhyContext,
  gap?: GapOf,
): string {
  const database = gap ? databaseGap(faster, slower, gap.parts, gap.evidence, c.measurements) : undefined;
  const dbText = database ? databaseText(faster, slower, question, database, c.queries) : undefined;
  const parts = [database?.most ? dbText : undefined, turnsPart(faster, slower, question, c)];
  if (database && !database.most) parts.push(dbText);
  if (question !== 'warm query') parts.push(phasePart(faster, slower, c), cpuPart(faster, slower, c));
  const said = parts.filter((p): p is string => p !== undefined);
  return said.length > 0
    ? said.join('; ')
    : `${faster} ahead of ${slower}: the run counted no round trips or phases to say why`;
}
