/**
 * Which targets "Probe this query" offers and which it ticks. Offered: targets of the statement's
 * family whose dialect accepts every mark it carries (sqlDialect.ts): a PostgreSQL-only statement is
 * never offered to a MySQL target, where it could only fail. Ranked: the targets whose driver the
 * file imports first, then those of the dialect it imports, then the rest. Ticked: the first of those
 * groups that has a target (all, when the file names no driver); a pick the user made before for the
 * same kind of statement in the same kind of file wins. Pure: the caller hands in
 * the targets with their driver's family and dialect, and what it remembers.
 */
import type { SqlDialect, WorkloadFamily } from '../../core/driver';
import type { QueryFamily } from '../../shared/classify';
import type { DriverHint } from './fileDrivers';
import type { SqlParameter } from './parameters';
import { DIALECT_NAMES, dialectWords, readSqlDialect } from './sqlDialect';

export interface CandidateTarget {
  name: string;
  driver: string;
  family?: WorkloadFamily;
  dialect?: SqlDialect;
}

export interface OfferedTarget {
  name: string;
  ticked: boolean;
  /** How it fits the file: "this file imports pg", "PostgreSQL, as this file's postgres"; absent: no hint. */
  fit?: string;
}

export interface TargetChoice {
  /** Targets the statement can run on, best fit first. */
  offered: OfferedTarget[];
  /** Targets of the family it cannot run on, each with why ("local-mysql speaks MySQL"). */
  left: { name: string; why: string }[];
  /** What decided the offer, in one short sentence for the pick's placeholder; empty when nothing did. */
  basis: string;
  /** The statement's dialect as its marks tell ("PostgreSQL", seen "pg_class"); absent when unmarked. */
  written?: { dialects: string; seen: string[] };
  /** Picks are remembered per statement family, dialect and file hints: the same situation, the same pick. */
  memoryKey: string;
}

export interface StatementToPlace {
  family: QueryFamily;
  text: string;
  parameters?: readonly SqlParameter[];
}

export function chooseTargets(
  statement: StatementToPlace,
  hints: readonly DriverHint[],
  targets: readonly CandidateTarget[],
  remembered: (memoryKey: string) => readonly string[] | undefined,
): TargetChoice {
  const family = targets.filter((t) => t.family === statement.family);
  const reading =
    statement.family === 'sql' ? readSqlDialect(statement.text, statement.parameters) : undefined;
  const dialects = reading?.dialects;
  const runs = (t: CandidateTarget) => !dialects || t.dialect === undefined || dialects.includes(t.dialect);
  const fitting = family.filter(runs);
  const left = family
    .filter((t) => !runs(t))
    .map((t) => ({
      name: t.name,
      why: `${t.name} (${t.driver}) speaks ${t.dialect ? DIALECT_NAMES[t.dialect] : 'another dialect'}`,
    }));

  const ownHints = hints.filter((h) => h.family === statement.family);
  const fitOf = (t: CandidateTarget): { rank: number; fit?: string } => {
    const byDriver = ownHints.find((h) => h.drivers.includes(t.driver));
    if (byDriver) return { rank: 0, fit: `this file imports ${byDriver.from}` };
    const byDialect = ownHints.find((h) => h.dialect !== undefined && h.dialect === t.dialect);
    if (byDialect)
      return { rank: 1, fit: `${DIALECT_NAMES[byDialect.dialect!]}, as this file's ${byDialect.from}` };
    return { rank: 2 };
  };
  const ranked = fitting
    .map((t, order) => ({ t, order, ...fitOf(t) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order);

  const memoryKey = [
    statement.family,
    dialects?.join('+') ?? '*',
    [...new Set(ownHints.flatMap((h) => (h.drivers.length > 0 ? h.drivers : [h.dialect ?? ''])))]
      .sort()
      .join(','),
  ].join(':');
  const names = new Set(fitting.map((t) => t.name));
  const before = (remembered(memoryKey) ?? []).filter((n) => names.has(n));
  const hinted = ranked.filter((r) => r.rank < 2);
  // The closest fit only: the driver the file imports when a target uses it, else its dialect.
  const bestRank = hinted[0]?.rank;
  const ticked = (r: (typeof ranked)[number]) =>
    before.length > 0 ? before.includes(r.t.name) : ownHints.length > 0 ? r.rank === bestRank : true;

  return {
    offered: ranked.map((r) => ({ name: r.t.name, ticked: ticked(r), fit: r.fit })),
    left,
    basis: basis(reading, ownHints, left, hinted.length),
    ...(dialects
      ? { written: { dialects: dialectWords(dialects), seen: reading!.marks.map((m) => m.seen).slice(0, 3) } }
      : {}),
    memoryKey,
  };
}

function basis(
  reading: ReturnType<typeof readSqlDialect> | undefined,
  hints: readonly DriverHint[],
  left: readonly { name: string }[],
  hintedCount: number,
): string {
  const parts: string[] = [];
  if (reading?.dialects && left.length > 0) {
    const seen = reading.marks.map((m) => m.seen).slice(0, 3);
    parts.push(
      `${dialectWords(reading.dialects)} syntax (${seen.join(', ')}): ${left.map((l) => l.name).join(', ')} left out`,
    );
  } else if (reading?.conflicting)
    parts.push(
      `marks of several dialects (${reading.marks.map((m) => m.seen).join(', ')}): every SQL target offered`,
    );
  if (hints.length > 0) {
    const from = hints.map((h) => h.from).join(', ');
    parts.push(hintedCount > 0 ? `this file uses ${from}` : `this file uses ${from}, which no target uses`);
  }
  return parts.join('; ');
}
