/**
 * The Markdown section "From where your app runs": each target's p50 projected to the RTTs
 * the user names, for a new connection, a warm one and requests of 1..N queries, from the one
 * computation in src/shared/projection.ts; then the overtakes the run establishes, and the targets it
 * could not project with why. Pure: the caller prints.
 */
import {
  FLOOR_SOURCE_TEXT,
  projectRun,
  type KindProjection,
  type ProjectionOptions,
} from '../shared/projection';
import { findOvertakes } from '../shared/judgement/projectionOvertakes';
import type { RunResult } from '../shared/result';
import { ms } from '../shared/units';
import { inlineText, markdownTable, type Column } from './markdownTable';

export const PROJECTION_TITLE = 'From where your app runs';

/**
 * The section's lines, or none when no target of the run has counted round trips. `apart`: targets
 * the verdict ranks against nothing (alone in their workload), left out of the table.
 */
export function projectionSection(
  result: RunResult,
  options: ProjectionOptions & { apart?: readonly string[] } = {},
): string[] {
  const { apart = [], ...asked } = options;
  const all = projectRun(result, asked);
  const set = { ...all, targets: all.targets.filter((t) => !apart.includes(t.target)) };
  if (set.targets.length === 0) return [];
  const lines = [
    `## ${PROJECTION_TITLE}`,
    '',
    'Projected p50 (ms) from a place at each round-trip time (RTT) to the database: local part + turns x RTT, where turns are the round trips counted on the driver’s own socket plus its TCP handshakes, and the local part is the p50 measured here minus turns x the floor (this run’s RTT to the target). Same server, same local work; see docs/measuring.md, "From your desk to your region".',
    '',
  ];
  let lowerBound = false;
  const floors: string[] = [];
  const rows: ProjectionRow[] = [];
  for (const t of set.targets) {
    floors.push(`${inlineText(t.target)}: ${FLOOR_SOURCE_TEXT[t.floor.source]}`);
    const row = (
      request: string,
      k: KindProjection,
      atUs: readonly number[],
      turns = k.turns,
      hereUs = k.p50Us,
    ): ProjectionRow => {
      lowerBound ||= k.lowerBound !== undefined;
      return {
        target: t.target,
        request,
        turns,
        hereUs,
        floorUs: t.floor.us,
        atUs,
        lowerBound: !!k.lowerBound,
      };
    };
    if (t.initial && t.initialAtUs)
      rows.push(row('new connection + 1 query (initial)', t.initial, t.initialAtUs));
    if (t.subsequent && t.subsequentAtUs)
      rows.push(row('1 query, warm connection (subsequent)', t.subsequent, t.subsequentAtUs));
    const { initial, subsequent, requestsAtUs } = t;
    if (initial && subsequent && requestsAtUs) {
      // Marked as a whole when either part is a lower bound.
      const both: KindProjection = initial.lowerBound ? initial : subsequent;
      for (let k = 2; k <= set.maxQueries; k++) {
        const at = requestsAtUs[k - 1];
        if (!at) continue;
        rows.push(
          row(
            `new connection + ${k} queries`,
            both,
            at,
            initial.turns + (k - 1) * subsequent.turns,
            initial.p50Us + (k - 1) * subsequent.p50Us,
          ),
        );
      }
    }
  }
  lines.push(...markdownTable(projectionColumns(set.rttsMs), rows));
  lines.push('');
  if (lowerBound)
    lines.push(
      `≥: a lower bound. That kind received more than a TCP initial congestion window (~14 KB) per sample at p50: on a new connection far away such a response needs more than one flight, which loopback never shows.`,
      '',
    );
  lines.push(`Floor per target: ${floors.join('; ')}.`, '');
  const overtakes = findOvertakes(result, set);
  const established = overtakes.filter((o) => o.state === 'established');
  const noise = overtakes.filter((o) => o.state === 'noise');
  if (established.length > 0) lines.push(...established.map((o) => `- ${o.text}.`), '');
  if (noise.length > 0) lines.push(...noise.map((o) => `- ${o.text}.`), '');
  if (overtakes.length === 0 && set.targets.length > 1)
    lines.push(
      // Per kind: a request of several queries sums two kinds and is the verdict's to rank at each RTT.
      'No two targets’ new-connection or warm-query lines cross at a positive RTT: on each of those, the one ahead here stays ahead at any distance.',
      '',
    );
  if (set.skipped.length > 0)
    lines.push(
      `Not projected: ${set.skipped.map((s) => `${inlineText(s.target)}${s.kind ? ` (${s.kind})` : ''}: ${s.reason}`).join('; ')}.`,
      '',
    );
  return lines;
}

interface ProjectionRow {
  readonly target: string;
  readonly request: string;
  readonly turns: number;
  readonly hereUs: number;
  readonly floorUs: number;
  /** The projected p50 at each RTT the user named, in their order. */
  readonly atUs: readonly number[];
  readonly lowerBound: boolean;
}

function projectionColumns(rttsMs: readonly number[]): Column<ProjectionRow>[] {
  return [
    { header: 'Target', cell: (row) => row.target },
    { header: 'Request', cell: (row) => row.request },
    { header: 'Turns', align: 'right', cell: (row) => row.turns },
    { header: 'Here', align: 'right', cell: (row) => ms(row.hereUs) },
    { header: 'Floor', align: 'right', cell: (row) => ms(row.floorUs) },
    ...rttsMs.map((rtt, i): Column<ProjectionRow> => ({
      header: `${rtt} ms`,
      align: 'right',
      cell: (row) => {
        const us = row.atUs[i];
        return us === undefined ? '-' : `${row.lowerBound ? '≥ ' : ''}${ms(us)}`;
      },
    })),
  ];
}
