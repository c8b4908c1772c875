/**
 * The live status (off by default, `dbprobe.heartbeat.*`): every N seconds one beat, a one-target
 * `subsequent` run through the engine (heartbeatBeats.ts: it connects as a probe does, its own
 * connection per beat, one warm-up query, then the measured one), its p50 over the last minute in
 * the status bar, in the warning colour past a threshold. Beats run on the extension host itself
 * (an in-process place), not in a probe thread: a thread per beat costs far more than the beat
 * (docs/architecture.md has the figures). Turning the heartbeat
 * off, or changing its target, cancels the beat under way as a probe's Cancel does.
 * Writes never run here unless the target allows them, and a workspace's own targets wait for trust.
 * This file is the VS Code glue only: settings, the status bar item, saved runs for the projection.
 */
import * as vscode from 'vscode';
import { localPlace } from '../../places/localPlace';
import type { Place } from '../../places/place';
import { secretsInEnvironment } from '../../shared/envSecrets';
import { Redactor } from '../../shared/redact';
import type { ResolvedTarget } from '../config/targetSources';
import { HEARTBEAT_RUNNING_KEY } from '../contextKeys';
import { describeError } from '../log';
import { createResolver } from '../probe/resolver';
import { classify } from '../../shared/classify';
import type { Services } from '../services';
import { HeartbeatWindow, describeHeartbeat } from './heartbeatWindow';
import { heartbeatPlan, runHeartbeat, type HeartbeatBeat } from './heartbeatBeats';
import { heartbeatHealth } from './heartbeatHealth';
import type { TargetHealth } from '../../shared/judgement/judgeHealth';
import { findHeartbeatProjection, projectHeartbeat, type HeartbeatProjection } from './heartbeatProjection';
import { findPlaceFloor, type PlaceFloor } from '../queries/appLocation';
import { affectsAppLocation, appLocation } from '../settings/projectionSettings';

export const HEARTBEAT_START = 'dbprobe.startHeartbeat';
const WINDOW_MS = 60_000;

interface Settings {
  enabled: boolean;
  target: string;
  intervalSeconds: number;
  warnAboveMs: number;
}

interface Session {
  key: string;
  target: ResolvedTarget;
  settings: Settings;
  redactor: Redactor;
  /** Cancels the beats (and the beat under way). */
  controller: AbortController;
  /** The watch loop of beats; settles once the last beat has stopped. */
  beats?: Promise<number>;
  stopped: boolean;
  lastError?: string;
  /** The shared health judgement after the last query (up, last success), carried from tick to tick. */
  health?: TargetHealth;
  /** Turns and floor for the projection to `dbprobe.appRttMs`, from a saved run (heartbeatProjection.ts). */
  projection?: HeartbeatProjection;
  /** With `dbprobe.appLocation`: that runner place's measured floor to the target (none: not measured there). */
  placeFloor?: { place: string; floor: PlaceFloor | undefined };
}

export class Heartbeat implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'dbprobe.heartbeat',
    vscode.StatusBarAlignment.Left,
    9,
  );
  private readonly window = new HeartbeatWindow(WINDOW_MS);
  private readonly subscriptions: vscode.Disposable[];
  private session: Session | undefined;
  /** The engine in this process; it loads with the first beat. */
  private readonly place: Place;
  /** Reconciles run one at a time: two settings events in a row must not start two sessions. */
  private queue: Promise<void> = Promise.resolve();
  /** Fired when the watched target goes down or comes back (or the heartbeat stops): the Targets view marks it. */
  private readonly healthChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeHealth = this.healthChanged.event;

  constructor(private readonly services: Services) {
    this.place = localPlace({
      registry: services.registry,
      description: 'the VS Code extension host',
      location: { kind: 'local', label: 'this machine (VS Code extension host)' },
      // A beat is one warm query: a side connection and an EXPLAIN per beat would double its load.
      serverTimeRuns: false,
    });
    this.item.name = 'DB Probe: heartbeat';
    this.item.command = HEARTBEAT_START;
    this.subscriptions = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('dbprobe.heartbeat') || e.affectsConfiguration('dbprobe.targets'))
          void this.reconcile();
        else if (affectsAppLocation(e) && this.session) {
          this.render(this.session);
          void this.findPlaceFloor(this.session);
        }
      }),
      services.targets.onDidChange(() => void this.reconcile()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.reconcile()),
    ];
  }

  /** Starts, restarts or stops to match the settings; cheap when nothing changed. */
  reconcile(): Promise<void> {
    this.queue = this.queue.then(
      () => this.reconcileNow(),
      () => this.reconcileNow(),
    );
    return this.queue;
  }

  private async reconcileNow(): Promise<void> {
    const settings = readSettings();
    if (!settings.enabled) {
      await this.stop();
      this.item.hide();
      return;
    }
    const snapshot = await this.services.targets.get();
    const target = snapshot.targets.find((t) => t.spec.name === settings.target && t.issues.length === 0);
    if (!target) {
      await this.stop();
      return this.show(
        '$(warning) heartbeat',
        `DB Probe heartbeat: no usable target named "${settings.target}". Click to pick one.`,
      );
    }
    const info = this.services.registry.info(target.spec.driver);
    const workload = target.spec.query ?? info?.defaultQuery ?? '';
    const family = info?.family;
    const check = family && family !== 'http' ? classify(family, workload) : undefined;
    if (check && !check.readOnly && target.spec.allowWrites !== true) {
      await this.stop();
      return this.show(
        `$(circle-slash) ${target.spec.name}`,
        `DB Probe heartbeat: refused on "${target.spec.name}": its query is not read-only (${check.reason}) and the target does not allow writes.`,
      );
    }
    if (target.fromWorkspace && !vscode.workspace.isTrusted) {
      await this.stop();
      return this.show(
        `$(shield) ${target.spec.name}`,
        `DB Probe heartbeat: "${target.spec.name}" is defined by this workspace, which is not trusted; trust it to run the heartbeat.`,
      );
    }
    const built = heartbeatPlan(
      target.spec,
      this.services.targets.planSettings(),
      snapshot.fileConfig,
      this.services.registry.ids(),
    );
    if (!built.ok) {
      await this.stop();
      return this.show(
        `$(warning) ${target.spec.name}`,
        `DB Probe heartbeat: "${target.spec.name}" cannot be probed as it is: ${built.problem}. Fix the dbprobe.* settings or dbprobe.json.`,
      );
    }
    const key = JSON.stringify([built.plan, settings]);
    if (this.session?.key === key && !this.session.stopped) return;
    await this.stop();
    this.window.clear();
    const session: Session = {
      key,
      target,
      settings,
      redactor: new Redactor(),
      controller: new AbortController(),
      stopped: false,
    };
    for (const secret of secretsInEnvironment(process.env)) session.redactor.addSecret(secret);
    this.session = session;
    void vscode.commands.executeCommand('setContext', HEARTBEAT_RUNNING_KEY, true);
    this.render(session);
    void this.findProjection(session);
    void this.findPlaceFloor(session);
    session.beats = runHeartbeat({
      place: this.place,
      plan: built.plan,
      everyMs: settings.intervalSeconds * 1000,
      signal: session.controller.signal,
      resolveConnection: createResolver({
        connections: this.services.connections,
        env: process.env,
        builtIn: this.services.builtInConnections,
        redactors: [session.redactor, this.services.log.redactor],
      }),
      redactor: session.redactor,
      onBeat: (beat) => this.onBeat(session, beat),
    }).catch((error: unknown) => {
      // A place never rejects for a failed run; anything here is a bug, said in the log.
      this.services.log.error(`heartbeat ${target.spec.name} stopped`, error);
      return 0;
    });
  }

  private onBeat(session: Session, beat: HeartbeatBeat): void {
    if (session.stopped) return;
    const ok = beat.us !== undefined;
    this.window.add(ok ? { atMs: beat.atMs, us: beat.us } : { atMs: beat.atMs });
    session.lastError = ok ? undefined : session.redactor.redact(beat.problem ?? 'no answer');
    const wasDown = session.health?.up === false;
    session.health = heartbeatHealth(
      session.target.spec.name,
      { atMs: beat.atMs, ok, problem: session.lastError },
      session.health,
    );
    if (session.lastError !== undefined)
      this.services.log.warn(`heartbeat ${session.target.spec.name}: ${session.lastError}`);
    this.render(session);
    if (wasDown !== (session.health.up === false)) this.healthChanged.fire();
  }

  /** The health sentence when the heartbeat's target is down now (redacted); undefined otherwise. */
  downSentence(target: string): string | undefined {
    const session = this.session;
    if (!session || session.target.spec.name !== target || session.health?.up !== false) return undefined;
    return this.services.log.redactor.redact(session.health.sentence);
  }

  /** Looks once per session for a saved run to project from; a failure only leaves the projection out. */
  private async findProjection(session: Session): Promise<void> {
    try {
      const runs = await this.services.runs.list();
      session.projection = await findHeartbeatProjection(session.target.spec.name, runs, (id) =>
        this.services.runs.load(id),
      );
      if (session.projection && !session.stopped) this.render(session);
    } catch (error) {
      this.services.log.warn(`heartbeat projection: ${describeError(error, session.redactor)}`);
    }
  }

  /** With `dbprobe.appLocation` set: looks up that place's floor to the target in saved runs. */
  private async findPlaceFloor(session: Session): Promise<void> {
    const location = appLocation();
    if (location?.kind !== 'place') return;
    try {
      const runs = await this.services.runs.list();
      const floor = await findPlaceFloor(location.place, session.target.spec.name, runs, (id) =>
        this.services.runs.load(id),
      );
      session.placeFloor = { place: location.place, floor };
      if (!session.stopped) this.render(session);
    } catch (error) {
      this.services.log.warn(`heartbeat app location: ${describeError(error, session.redactor)}`);
    }
  }

  private render(session: Session): void {
    const summary = this.window.summary(Date.now(), session.settings.warnAboveMs * 1000);
    const location = appLocation();
    const found =
      location?.kind === 'place' && session.placeFloor?.place === location.place
        ? session.placeFloor
        : undefined;
    const app =
      location?.kind === 'rtt'
        ? { rttMs: location.rttMs }
        : found?.floor
          ? { rttMs: found.floor.rttUs / 1000, place: found.place }
          : undefined;
    const projected =
      app !== undefined && session.projection && summary.p50Us !== undefined
        ? {
            us: projectHeartbeat(summary.p50Us, session.projection, app.rttMs),
            appRttMs: app.rttMs,
            place: app.place,
            turns: session.projection.turns,
            floorUs: session.projection.floorUs,
          }
        : undefined;
    const missingPlace = found && !found.floor ? found.place : undefined;
    const { text, tooltip } = describeHeartbeat(
      { name: session.target.spec.name, driver: session.target.spec.driver },
      summary,
      session.settings,
      {
        lastError: session.lastError,
        projected,
        missingPlace,
        health: session.health,
      },
    );
    const down = session.health?.up === false;
    this.item.backgroundColor =
      down || summary.level === 'failing'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : summary.level === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    // The tooltip holds names and figures; the last error passed the session's Redactor.
    this.show(text, this.services.log.redactor.redact(tooltip));
  }

  private show(text: string, tooltip: string): void {
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.show();
  }

  /**
   * Stops the beats: the beat under way is cancelled as a probe is, and its connection closed by the
   * engine (within the place's cancel grace), before a new session may start.
   */
  async stop(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.item.backgroundColor = undefined;
    if (!session) return;
    if (session.health?.up === false) this.healthChanged.fire();
    void vscode.commands.executeCommand('setContext', HEARTBEAT_RUNNING_KEY, false);
    session.stopped = true;
    session.controller.abort();
    await session.beats;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    void this.stop();
    this.item.dispose();
    this.healthChanged.dispose();
  }
}

/** "DB Probe: Start Heartbeat…": pick the target, then the settings turn it on. */
export async function startHeartbeatCommand(services: Services): Promise<void> {
  const snapshot = await services.targets.get();
  const usable = snapshot.targets.filter((t) => t.issues.length === 0);
  if (usable.length === 0) {
    void vscode.window.showInformationMessage(
      'DB Probe: add a target first (DB Probe: Add Connection), then start the heartbeat on it.',
    );
    return;
  }
  const current = readSettings();
  const picked = await vscode.window.showQuickPick(
    usable.map((t) => ({
      label: t.spec.name,
      description: t.spec.driver,
      picked: t.spec.name === current.target,
    })),
    {
      title: 'DB Probe heartbeat: target',
      placeHolder: `One query every ${current.intervalSeconds} s on a warm connection, p50 in the status bar`,
    },
  );
  if (!picked) return;
  const config = vscode.workspace.getConfiguration('dbprobe.heartbeat');
  await config.update('target', picked.label, vscode.ConfigurationTarget.Global);
  await config.update('enabled', true, vscode.ConfigurationTarget.Global);
}

export async function stopHeartbeatCommand(): Promise<void> {
  const config = vscode.workspace.getConfiguration('dbprobe.heartbeat');
  if (config.inspect('enabled')?.workspaceValue !== undefined)
    await config.update('enabled', false, vscode.ConfigurationTarget.Workspace);
  await config.update('enabled', false, vscode.ConfigurationTarget.Global);
}

function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration('dbprobe.heartbeat');
  return {
    enabled: config.get<boolean>('enabled', false),
    target: config.get<string>('target', ''),
    intervalSeconds: Math.min(3600, Math.max(5, config.get<number>('intervalSeconds', 30))),
    warnAboveMs: Math.max(0, config.get<number>('warnAboveMs', 100)),
  };
}
