/**
 * Runs a plan from the editor: a cancellable progress notification with per-target progress, then
 * the (possibly partial) result saved and shown. Never blocks the extension host: the engine awaits
 * every sample, and several runs may be under way at once.
 */
import * as vscode from 'vscode';
import type { PlanSpec } from '../../shared/plan';
import { Redactor } from '../../shared/redact';
import type { RunResult } from '../../shared/result';
import { describeError } from '../log';
import type { Services } from '../services';
import type { ProbeLocation } from './locations';
import { ProgressTracker } from './progressTracker';
import { createResolver } from './resolver';

/** The notification text changes at most this often: one update per sample would flood the UI. */
const REPORT_EVERY_MS = 150;

export async function runProbe(
  services: Services,
  plan: PlanSpec,
  location: ProbeLocation,
): Promise<RunResult | undefined> {
  const { log } = services;
  // One Redactor per run, holding that run's secrets, for the result at the storage boundary.
  const redactor = new Redactor();
  const resolveConnection = createResolver({
    connections: services.connections,
    env: process.env,
    builtIn: services.builtInConnections,
    redactors: [redactor, log.redactor],
  });
  const names = plan.targets.map((t) => t.name).join(', ');
  log.info(
    `probe ${names}: ${plan.kinds.join(' + ')}, ${plan.iterations} samples after ${plan.warmup} warm-up, ${location.id}`,
  );

  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'DB Probe', cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => {
        log.info(`probe ${names}: cancelled by the user`);
        controller.abort();
      });
      const tracker = new ProgressTracker();
      let pending = 0;
      let lastReport = 0;
      try {
        return await location.run({
          plan,
          resolveConnection,
          redactor,
          signal: controller.signal,
          onEvent: (event) => {
            if (event.type === 'error')
              log.warn(
                `${event.target ?? 'run'} ${event.kind ?? ''}: ${event.failure.class}: ${event.failure.message}`,
              );
            if (event.type === 'targetDone') {
              log.info(
                `${event.target} ${event.kind}: n=${event.stats.count} p50=${event.stats.p50Us} us p95=${event.stats.p95Us} us errors=${event.stats.errors}`,
              );
            }
            const step = tracker.handle(event);
            if (!step) return;
            pending += step.increment;
            const now = Date.now();
            if (now - lastReport < REPORT_EVERY_MS && event.type === 'sample') return;
            lastReport = now;
            progress.report({ increment: pending, message: step.message });
            pending = 0;
          },
        });
      } catch (error) {
        log.error(`probe ${names} failed`, error);
        void vscode.window.showErrorMessage(
          `DB Probe: the run stopped with an error: ${describeError(error, log.redactor)}. Nothing was saved; see the DB Probe output for details and run it again.`,
        );
        return undefined;
      } finally {
        cancel.dispose();
      }
    },
  );
  if (!result) return undefined;

  const summary = await services.runs.save(result, redactor);
  log.info(
    `run ${result.id} ${result.state} in ${Math.round(result.durationUs / 1000)} ms: ${summary.headline}`,
  );
  await services.panels.showRun(result.id);
  if (result.state !== 'completed') {
    void vscode.window.showWarningMessage(
      `DB Probe: the run was ${result.state === 'cancelled' ? 'cancelled' : 'stopped at its time limit'}; the panel shows what was measured until then.`,
    );
  }
  return result;
}
