/**
 * The panel protocol: every message between the extension host and the run panel webview. One
 * union per direction, keyed on `type`, with guards the receiving side runs before trusting data.
 * The webview says `ready` before the host posts anything (a message posted earlier would be lost).
 */
import { isExportFormat, type ExportFormat } from './formats';
import { isCount, isStringArray, isRecord } from './guards';
import type {
  CompareViewModel,
  GroupViewModel,
  ProgressViewModel,
  RunEvidence,
  RunViewModel,
} from './viewModel';

/** Host -> webview. */
export type HostMessage =
  | { type: 'showRun'; model: RunViewModel }
  /**
   * The evidence (Differences, crossovers) of the run a `showRun` without it showed: computed after
   * that message was posted (the costliest part of the view), drawn after the first paint.
   */
  | { type: 'evidence'; runId: string; evidence: RunEvidence }
  | { type: 'showCompare'; model: CompareViewModel }
  /** One plan run in several places (this machine, runners), side by side. */
  | { type: 'showGroup'; model: GroupViewModel }
  /** The stored run the panel was restored for is gone (deleted, or storage cleared). */
  | { type: 'missing'; message: string }
  /**
   * A run under way (the panel opens as the run starts): at most every PROGRESS_EVERY_MS, names and
   * counts only. The result follows in the same webview as `showRun` or `showGroup`. `restoreAs`
   * names that run or group as soon as its id is known, so a window reload during the run brings
   * the panel back to what the run saved when it was stopped.
   */
  | { type: 'progress'; model: ProgressViewModel; restoreAs?: RunPanelState };

/** Progress messages are posted at most this often (one per sample would flood the webview). */
export const PROGRESS_EVERY_MS = 100;

/** Webview -> host. */
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'export'; format: ExportFormat }
  | { type: 'copyMarkdown' }
  | { type: 'openRun'; runId: string }
  /** The Cancel button of a panel showing a run under way: the same as the notification's Cancel. */
  | { type: 'cancel' }
  /**
   * A run under way: the first frame showing a running p50 has been painted (once per webview
   * load). The host times it from the run's first sample (the panel_first_figure_ms bench).
   */
  | { type: 'progressPainted' }
  /**
   * The first frame holding every section of what the host sent has been painted. `ms` runs on the
   * webview's own clock (performance.now()) from the show message's receipt to that frame; the host
   * times its side (panel opened -> this message) on its own clock. `drawMs`: the part until the DOM
   * was built, before layout and paint (charts and a run's evidence are drawn after that frame). `loadMs`: the webview's document from
   * its navigation start until its script said `ready` (fetching and running the bundle). Sent once
   * per webview load.
   */
  | {
      type: 'painted';
      view: PanelView;
      ms: number;
      drawMs: number;
      loadMs: number;
      targets: number;
      sections: number;
    };

export type PanelView = 'run' | 'group' | 'compare' | 'missing';

/** A panel showing one run, or one run group (a plan run in several places). */
export type RunPanelState = { view: 'run'; runId: string } | { view: 'group'; groupId: string };

/** What the webview keeps with `setState`, so a reload can restore the panel. */
export type PanelState =
  | (RunPanelState & {
      /**
       * Kept while the run was still going: a reload stops the run, which saves what it measured
       * from the closing extension host, so the restored panel waits a few seconds for that save.
       */
      running?: true;
    })
  | { view: 'compare'; runIds: [string, string] };

export function isWebviewMessage(value: unknown): value is WebviewMessage {
  if (!isRecord(value) || typeof value.type !== 'string') return false;
  switch (value.type) {
    case 'ready':
    case 'copyMarkdown':
    case 'cancel':
    case 'progressPainted':
      return true;
    case 'export':
      return isExportFormat(value.format);
    case 'openRun':
      return isRunId(value.runId);
    case 'painted':
      return (
        (['run', 'group', 'compare', 'missing'] as unknown[]).includes(value.view) &&
        isCount(value.ms) &&
        isCount(value.drawMs) &&
        isCount(value.loadMs) &&
        isCount(value.targets) &&
        isCount(value.sections)
      );
    default:
      return false;
  }
}

export function isHostMessage(value: unknown): value is HostMessage {
  if (!isRecord(value) || typeof value.type !== 'string') return false;
  switch (value.type) {
    case 'showRun':
      return isRecord(value.model) && typeof value.model.runId === 'string';
    case 'evidence':
      return (
        typeof value.runId === 'string' &&
        isRecord(value.evidence) &&
        isRecord(value.evidence.differences) &&
        Array.isArray(value.evidence.differences.comparisons) &&
        Array.isArray(value.evidence.differences.skipped) &&
        Array.isArray(value.evidence.crossovers) &&
        Array.isArray(value.evidence.withinNoise) &&
        isRecord(value.evidence.judgement) &&
        isStringArray(value.evidence.judgement.lines) &&
        Array.isArray(value.evidence.judgement.rankings) &&
        Array.isArray(value.evidence.judgement.load) &&
        isStringArray(value.evidence.judgement.notes)
      );
    case 'showCompare':
      return isRecord(value.model) && isRecord(value.model.a) && isRecord(value.model.b);
    case 'showGroup':
      return (
        isRecord(value.model) &&
        typeof value.model.groupId === 'string' &&
        Array.isArray(value.model.places) &&
        Array.isArray(value.model.rows) &&
        Array.isArray(value.model.details)
      );
    case 'missing':
      return typeof value.message === 'string';
    case 'progress':
      return (
        isProgressModel(value.model) &&
        (value.restoreAs === undefined ||
          (isPanelState(value.restoreAs) &&
            value.restoreAs.view !== 'compare' &&
            !('running' in value.restoreAs)))
      );
    default:
      return false;
  }
}

function isProgressModel(value: unknown): value is ProgressViewModel {
  return (
    isRecord(value) &&
    typeof value.title === 'string' &&
    isCount(value.elapsedMs) &&
    isCount(value.percent) &&
    (value.state === 'running' || value.state === 'cancelling') &&
    Array.isArray(value.places) &&
    value.places.every(
      (place: unknown) =>
        isRecord(place) &&
        typeof place.label === 'string' &&
        (['waiting', 'running', 'done', 'failed'] as unknown[]).includes(place.state) &&
        isCount(place.percent) &&
        Array.isArray(place.rows) &&
        place.rows.every(
          (row: unknown) =>
            isRecord(row) &&
            typeof row.target === 'string' &&
            typeof row.kind === 'string' &&
            isCount(row.done) &&
            isCount(row.asked) &&
            isCount(row.errors) &&
            (row.p50Us === undefined || isCount(row.p50Us)) &&
            (row.levels === undefined ||
              (Array.isArray(row.levels) &&
                row.levels.every(
                  (l: unknown) =>
                    isRecord(l) &&
                    isCount(l.level) &&
                    isCount(l.completed) &&
                    isCount(l.errors) &&
                    isCount(l.achievedRate),
                ))) &&
            (row.note === undefined || typeof row.note === 'string'),
        ),
    )
  );
}

export function isPanelState(value: unknown): value is PanelState {
  if (!isRecord(value)) return false;
  const running = value.running === undefined || value.running === true;
  if (value.view === 'run') return isRunId(value.runId) && running;
  if (value.view === 'group') return isRunId(value.groupId) && running;
  if (value.view === 'compare') {
    return Array.isArray(value.runIds) && value.runIds.length === 2 && value.runIds.every(isRunId);
  }
  return false;
}

/** Run (and run group) ids are UUIDs; anything else from a webview is refused (they become file names). */
export function isRunId(value: unknown): value is string {
  return (
    typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)
  );
}
