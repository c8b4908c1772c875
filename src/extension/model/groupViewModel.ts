/**
 * The across-places view model: one plan run in several places (this machine, runners in other
 * regions), shown side by side. Rows are target x kind; each place is a column labelled with where it
 * ran (the runner's region, from its result). Pure: built from the saved group and its results.
 */
import type { RunResult } from '../../shared/result';
import type { AcrossRow, GroupViewModel, PlaceColumn, PlaceFigures } from '../../shared/viewModel';
import type { RunGroup } from '../runs/runGroup';
import { buildRunViewModel } from './runViewModel';

export function buildGroupViewModel(
  group: RunGroup,
  results: ReadonlyMap<string, RunResult>,
): GroupViewModel {
  const placed = group.places.map((place) => ({
    place,
    result: place.runId ? results.get(place.runId) : undefined,
  }));
  const labels = disambiguate(
    placed.map(({ place, result }) => (result ? placeLabel(result, place.label) : place.label)),
    group.places.map((p) => p.runner),
  );
  const places = placed.map(({ place, result }, i): PlaceColumn => {
    const detail = place.runner
      ? [`runner "${place.runner}"`, result ? `Node ${result.environment.node}` : undefined]
      : ['VS Code extension host'];
    return {
      label: labels[i] ?? place.label,
      detail: detail.filter(Boolean).join(' · '),
      kind: place.kind,
      ...(result ? { runId: result.id, state: result.state } : {}),
      stopReason: result?.stopReason,
      ...(place.error
        ? { error: place.error }
        : !result
          ? { error: `${place.label}: its result is no longer in the workspace storage` }
          : {}),
      skipped: place.skipped,
    };
  });
  const all = placed.flatMap(({ result }) => (result ? [result] : []));
  const targets = unique(all.flatMap((r) => r.targets.map((t) => t.name)));
  const kinds = unique(all.flatMap((r) => r.plan.kinds));
  const rows: AcrossRow[] = [];
  for (const target of targets) {
    for (const kind of kinds) {
      const cells = placed.map(({ result }) => figures(result, target, kind));
      if (cells.some((c) => c !== null)) rows.push({ target, kind, cells });
    }
  }
  return {
    groupId: group.id,
    title: `DB Probe: ${shortList(targets)} from ${places.map((p) => p.label).join(' vs ')}`,
    startedAt: group.startedAt,
    kinds,
    places,
    rows,
    details: placed.map(({ result }) => (result ? buildRunViewModel(result) : null)),
  };
}

/** The runner's region as its result reports it (the truth of where it ran), else the saved label. */
export function placeLabel(result: RunResult, fallback: string): string {
  const where = result.environment.location;
  if (where.kind === 'local') return fallback;
  return where.region && where.region !== 'unknown' ? where.region : fallback;
}

function figures(
  result: RunResult | undefined,
  target: string,
  kind: AcrossRow['kind'],
): PlaceFigures | null {
  const m = result?.measurements.find((x) => x.target === target && x.kind === kind);
  if (!m) return null;
  return {
    count: m.stats.count,
    errors: m.stats.errors,
    failed: m.failed,
    p50Us: m.stats.p50Us,
    p95Us: m.stats.p95Us,
    p99Us: m.stats.p99Us,
  };
}

/** Two runners in one region would read alike: add the runner's name to each such label. */
function disambiguate(labels: string[], runners: (string | undefined)[]): string[] {
  return labels.map((label, i) =>
    labels.filter((l) => l === label).length > 1 && runners[i] ? `${label} (${runners[i]})` : label,
  );
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function shortList(names: string[]): string {
  return names.length > 3
    ? `${names.slice(0, 3).join(', ')} +${names.length - 3}`
    : names.join(', ') || 'run';
}
