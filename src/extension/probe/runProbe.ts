/**
 * Runs a plan from the editor, in one place or several at once (this machine, runners): one
 * cancellable progress notification with progress per place and one Cancel that stops all, and the
 * run's panel opened at once with live progress and its own Cancel; then the (possibly partial)
 * results saved and shown in that panel. One place is an ordinary run; several are saved
 * together as a run group and shown side by side. A place that fails (a runner killed mid-run)
 * keeps what arrived, and an error names it. Never blocks the extension host: every wait is awaited.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { failureOf, resultOf, type PlaceOutcome } from '../../places/outcome';
import type { Place } from '../../places/place';
import { runEverywhere } from '../../places/runEverywhere';
import type { PlanSpec } from '../../shared/plan';
import { secretsInEnvironment } from '../../shared/envSecrets';
import { Redactor } from '../../shared/redact';
import type { RunResult } from '../../shared/result';
import { describeError } from '../log';
import { askAppLocationOnce } from '../settings/appLocationQuestion';
import { LiveProgress } from '../model/liveProgress';
import type { LivePanel } from '../panel/livePanel';
import { verdictsOf } from '../runs/runVerdicts';
import { GROUP_SCHEMA, type GroupPlace, type RunGroup } from '../runs/runGroup';
import type { Services } from '../services';
import { PlacesProgress } from './placesProgress';
import type { PlannedPlace, PreparedPlaces } from './preparePlaces';
import { createResolver } from './resolver';

/** The notification text changes at most this often: one update per sample would flood the UI. */
const REPORT_EVERY_MS = 150;
/** The panel's elapsed time moves on this often when no event arrives (a long sample, a cold wait). */
const TICK_MS = 1000;
/** The longest a run waits for its panel's webview to load before it starts anyway. */
const PANEL_READY_WAIT_MS = 5_000;

/** One plan in one place (the demo, and any probe with a single place). */
export async function runProbe(services: Services, plan: PlanSpec, place: Place): Promise<void> {
  await runPlaces(services, { planned: [{ place, plan, skipped: [] }], failed: [], secrets: [] });
}

export async function runPlaces(services: Services, prepared: PreparedPlaces): Promise<void> {
  // Settles once the run's result is saved (or it failed): closing the window waits for it.
  let markFinished: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (markFinished = resolve));
  try {
    await runAndShow(services, prepared, finished);
  } finally {
    markFinished();
  }
}

async function runAndShow(
  services: Services,
  prepared: PreparedPlaces,
  finished: Promise<void>,
): Promise<void> {
  const { log } = services;
  const { planned, failed } = prepared;
  if (planned.length === 0) {
    void vscode.window.showErrorMessage(
      `DB Probe: nothing can run in the places you picked: ${failed.map((f) => describeError(f.error, log.redactor)).join('; ')}.`,
    );
    return;
  }
  // The first probe in a workspace asks where the app runs; the run does not wait for the answer.
  void askAppLocationOnce(services).catch((error: unknown) =>
    log.warn(`the question of where the app runs failed: ${describeError(String(error), log.redactor)}`),
  );
  // One Redactor per run, holding that run's secrets (connection strings, runner tokens), for the
  // results at the storage boundary.
  const redactor = new Redactor();
  for (const secret of prepared.secrets) redactor.addSecret(secret);
  for (const secret of secretsInEnvironment(process.env)) redactor.addSecret(secret);
  const resolveConnection = createResolver({
    connections: services.connections,
    env: process.env,
    builtIn: services.builtInConnections,
    redactors: [redactor, log.redactor],
  });
  const several = planned.length > 1 || failed.length > 0;
  // Known from the start, so the panel can be restored to the group if the window reloads mid-run.
  const groupId = randomUUID();
  const first = planned[0]!;
  const names = first.plan.targets.map((t) => t.name).join(', ');
  log.info(
    `probe ${names}: ${first.plan.kinds.join(' + ')}, ${first.plan.iterations} samples after ${first.plan.warmup} warm-up, from ${planned.map((p) => p.place.label).join(' and ')}`,
  );
  for (const place of planned)
    for (const skip of place.skipped) log.warn(`${place.place.label} skips ${skip.target}: ${skip.reason}`);
  for (const place of failed) log.warn(`${place.label} cannot run: ${place.error}`);
  warnSkipped(services, planned);

  // Opened as the run starts (inside the notification's task, so both appear together).
  let livePanel: LivePanel | undefined;
  // How busy the run kept the extension host (whose event loop carries every click to the
  // extension), and when a cancel arrived: the log says both, so a slow cancel is told apart.
  const hostLoopAtStart = performance.eventLoopUtilization();
  let cancelArrivedAt: number | undefined;
  const outcomes = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'DB Probe', cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const labels = planned.map((p) => p.place.label);
      const live = new LiveProgress(labels, names, performance.now());
      // The panel's Cancel and the notification's Cancel stop the run the same way.
      const panel = services.panels.openLive(names, () => stopRun('panel'));
      livePanel = panel;
      if (several) panel.identify({ view: 'group', groupId });
      const showLive = () => panel.progress(() => live.view(performance.now()));
      const stopRun = (from: string) => {
        if (controller.signal.aborted) return;
        log.info(`probe ${names}: cancelled by the user (${from})`);
        cancelArrivedAt = performance.now();
        controller.abort();
        live.cancel();
        showLive();
      };
      const cancel = token.onCancellationRequested(() => stopRun('notification'));
      services.running.track(() => stopRun('the window closing'), finished);
      const tick = setInterval(showLive, TICK_MS);
      showLive();
      // The run starts once the panel can show it: each row's p50 is there from its first sample.
      await panel.whenReady(PANEL_READY_WAIT_MS);
      const tracker = new PlacesProgress(labels);
      let pending = 0;
      let lastReport = 0;
      const report = (step: { increment: number; message: string } | undefined, now = false) => {
        if (!step) return;
        pending += step.increment;
        const at = Date.now();
        if (!now && at - lastReport < REPORT_EVERY_MS) return;
        lastReport = at;
        progress.report({ increment: pending, message: step.message });
        pending = 0;
      };
      try {
        return await runEverywhere(planned, {
          resolveConnection,
          redactor,
          signal: controller.signal,
          onEvent: (index, event) => {
            if (event.type === 'start' && !several) panel.identify({ view: 'run', runId: event.runId });
            const where = several ? `${planned[index]?.place.label ?? ''}: ` : '';
            if (event.type === 'error')
              log.warn(
                `${where}${event.target ?? 'run'} ${event.kind ?? ''}: ${event.failure.class}: ${event.failure.message}`,
              );
            if (event.type === 'targetDone') {
              log.info(
                `${where}${event.target} ${event.kind}: n=${event.stats.count} p50=${event.stats.p50Us} us p95=${event.stats.p95Us} us errors=${event.stats.errors}`,
              );
            }
            if (event.type === 'sample') panel.sampled();
            report(tracker.handle(index, event), event.type !== 'sample');
            if (live.handle(index, event)) showLive();
          },
          onSettled: (index, outcome) => {
            const failure = failureOf(outcome);
            if (failure?.class === 'internal')
              log.error(`probe ${names} from ${planned[index]?.place.label ?? ''} failed`, failure.cause);
            if (failure) log.error(failure.message);
            report(tracker.settle(index, failure ? 'failed' : 'done'), true);
            live.settle(index, failure ? 'failed' : 'done');
            showLive();
          },
        });
      } finally {
        clearInterval(tick);
        cancel.dispose();
      }
    },
  );

  if (several) return showGroup(services, prepared, outcomes, redactor, livePanel, groupId);
  const outcome = outcomes[0];
  const result = outcome && resultOf(outcome);
  const failure = outcome && failureOf(outcome);
  if (!result) {
    const text = `DB Probe: the run stopped with an error: ${describeError(failure?.message ?? 'no result', log.redactor)}. Nothing was saved; see the DB Probe output for details and run it again.`;
    livePanel?.fail(text);
    void vscode.window.showErrorMessage(text);
    return;
  }
  const summary = await services.runs.save(closingReason(services, result), redactor, verdictsOf([result]));
  log.info(
    `run ${result.id} ${result.state} in ${Math.round(result.durationUs / 1000)} ms: ${summary.headline}`,
  );
  log.info(runHostLine(hostLoopAtStart, cancelArrivedAt));
  // The window is closing: the panel VS Code restores in the next one shows the saved result.
  if (services.running.closing) return;
  if (!livePanel?.showRun(result.id)) await services.panels.showRun(result.id);
  if (failure) {
    void vscode.window.showErrorMessage(
      `DB Probe: ${describeError(failure.message, log.redactor)}. The panel shows what was measured until then.`,
    );
  } else if (result.state !== 'completed') {
    void vscode.window.showWarningMessage(
      `DB Probe: the run was ${result.state === 'cancelled' ? 'cancelled' : 'stopped at its time limit'}; the panel shows what was measured until then.`,
    );
  }
}

/** Several places: save every result as one group, show them side by side, name what failed. */
async function showGroup(
  services: Services,
  prepared: PreparedPlaces,
  outcomes: PlaceOutcome[],
  redactor: Redactor,
  livePanel: LivePanel | undefined,
  groupId: string,
): Promise<void> {
  const { log } = services;
  const places: GroupPlace[] = [
    ...prepared.planned.map((p, i) => placeOf(p, outcomes[i], log.redactor)),
    ...prepared.failed.map((f) => ({ ...f, error: describeError(f.error, log.redactor) })),
  ];
  const results = outcomes.flatMap((o) => resultOf(o) ?? []).map((r) => closingReason(services, r));
  const errors = places.flatMap((p) => (p.error ? [p.error] : []));
  if (results.length === 0) {
    const text = `DB Probe: no place produced a result: ${errors.join('; ')}. Nothing was saved; see the DB Probe output.`;
    livePanel?.fail(text);
    void vscode.window.showErrorMessage(text);
    return;
  }
  const startedAt = results.map((r) => r.startedAt).sort()[0] ?? new Date().toISOString();
  const group: RunGroup = { schema: GROUP_SCHEMA, id: groupId, startedAt, places };
  await services.runs.saveGroup(group, results, redactor, verdictsOf(results));
  log.info(`run group ${group.id}: ${places.map((p) => `${p.label} ${placeState(p, results)}`).join(', ')}`);
  if (services.running.closing) return;
  if (!livePanel?.showGroup(group.id)) await services.panels.showGroup(group.id);
  if (errors.length > 0) {
    void vscode.window.showErrorMessage(
      `DB Probe: ${errors.join('; ')}. The panel shows every place side by side, with what arrived from the failed ones.`,
    );
  } else if (results.some((r) => r.state !== 'completed')) {
    void vscode.window.showWarningMessage(
      'DB Probe: the run was cancelled or stopped at its time limit; the panel shows what each place measured until then.',
    );
  }
}

/**
 * "extension host: busy 4% of the run; saved 212 ms after the cancel arrived": what the run cost the
 * host that carries the editor's clicks, and the product's part of a cancel (its arrival to the saved
 * result). e2e/extension-responsive reads it.
 */
function runHostLine(
  atStart: ReturnType<typeof performance.eventLoopUtilization>,
  cancelArrivedAt: number | undefined,
): string {
  const busy = performance.eventLoopUtilization(atStart).utilization;
  const cancel =
    cancelArrivedAt === undefined
      ? ''
      : `; saved ${Math.round(performance.now() - cancelArrivedAt)} ms after the cancel arrived`;
  return `extension host: busy ${Math.round(busy * 100)}% of the run${cancel}`;
}

/** A run the closing window stopped says so, rather than "cancelled by the user". */
function closingReason(services: Services, result: RunResult): RunResult {
  return services.running.closing && result.state === 'cancelled'
    ? { ...result, stopReason: 'stopped when the window closed or reloaded' }
    : result;
}

function placeState(place: GroupPlace, results: RunResult[]): string {
  if (!place.runId) return 'failed';
  if (place.error) return 'failed mid-run (partial result kept)';
  return results.find((r) => r.id === place.runId)?.state ?? 'saved';
}

function placeOf(planned: PlannedPlace, outcome: PlaceOutcome | undefined, redactor: Redactor): GroupPlace {
  const { place } = planned;
  const result = outcome && resultOf(outcome);
  const failure = outcome && failureOf(outcome);
  return {
    label: place.label,
    kind: place.kind,
    runner: place.runner,
    runId: result?.id,
    ...(failure ? { error: describeError(failure.message, redactor) } : {}),
    skipped: planned.skipped,
  };
}

/** Said as the run starts, not after: the user may want to stop and set a runner's variable first. */
function warnSkipped(services: Services, planned: PlannedPlace[]): void {
  const skips = planned.flatMap((p) =>
    p.skipped.map((s) => `${p.place.label} skips ${s.target}: ${s.reason}`),
  );
  if (skips.length === 0) return;
  void vscode.window.showWarningMessage(
    `DB Probe: ${skips.map((s) => describeError(s, services.log.redactor)).join(' · ')}`,
  );
}
