/**
 * "DB Probe: Probe This Query", from a CodeLens or on a selection: the statement becomes the workload
 * of the targets the user picks, initial + subsequent, through the same run as the palette's probe
 * (runProbe). Only targets whose dialect can run the statement are offered, those the file imports
 * first and ticked (targetChoice.ts); the pick is remembered per workspace and kind of statement.
 * Parameters are asked for, prefilled with the last sample. Anything not read-only is refused on
 * targets without `allowWrites` and runs on the others only after a modal confirmation that names
 * them. The run is remembered as a query's, so a failure there is the query's, not the target's.
 */
import * as vscode from 'vscode';
import type { TargetSpec } from '../../shared/plan';
import { buildPlan } from '../config/planSettings';
import type { ResolvedTarget } from '../config/targetSources';
import { describeSource } from '../config/targetSources';
import { consentToWorkspaceTargets } from '../probe/consent';
import { missingSecrets } from '../probe/resolver';
import { runProbe } from '../probe/runProbe';
import { classify, type Classification, type QueryFamily } from '../../shared/classify';
import { fileDriverHints, type DriverHint } from '../queries/fileDrivers';
import type { LensMemory } from '../queries/lensMemory';
import { pickFigures, statementKey, withProjection, type LensRecord } from '../queries/lensText';
import { fillSqlParameters, parameterNames } from '../queries/parameters';
import type { ProbeQueryArgs } from '../queries/queryLensProvider';
import { MAX_SCAN_CHARS, statementFromSelection, type FoundStatement } from '../queries/statements';
import { chooseTargets } from '../queries/targetChoice';
import { gateWrites } from '../queries/writeGate';
import { documentStatements } from '../editorContext/queryContext';
import { statementAt } from '../editorContext/statementAt';
import type { Services } from '../services';

const FAMILY_DRIVERS: Record<QueryFamily, string> = {
  sql: 'SQL',
  redis: 'Redis',
  mongo: 'MongoDB',
};

export async function probeQueryCommand(
  services: Services,
  memory: LensMemory,
  args?: ProbeQueryArgs,
): Promise<void> {
  const selected = args ? undefined : selectedStatement();
  const statement = args?.statement ?? selected?.statement;
  if (!statement) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'DB Probe: select a SQL statement, a Redis command or a Mongo find (or click "Probe this query" above one) to probe it.',
      ),
    );
    return;
  }
  // The drivers the file imports (fileDrivers.ts): read here, not by the lens, so the driver catalog
  // stays out of the activation bundle.
  const hints = args ? driverHintsOf(args.uri) : (selected?.hints ?? []);
  const targets = await pickTargets(services, memory, statement, hints);
  if (!targets) return;

  const text = await fillParameters(memory, statement);
  if (text === undefined) return;
  const classification = classify(statement.family, text);
  const chosen = await gate(targets, classification, text, services);
  if (!chosen) return;

  const specs: TargetSpec[] = chosen.map((t) => ({ ...t.spec, query: text }));
  const defaultQuery = (driver: string) =>
    services.registry.info(driver)?.defaultQuery ?? 'the driver default';
  if (
    !(await consentToWorkspaceTargets(
      chosen.map((t, i) => ({ ...t, spec: specs[i]! })),
      defaultQuery,
    ))
  )
    return;
  const missing = await missingSecrets(specs, {
    connections: services.connections,
    env: process.env,
    builtIn: services.builtInConnections,
    redactors: [],
  });
  if (missing.length > 0) {
    void vscode.window.showErrorMessage(
      missing.length === 1
        ? vscode.l10n.t(
            'DB Probe: {0} is not in this VS Code\'s secret storage, so the query cannot connect there. Run "DB Probe: Add Connection" with that name first.',
            `secret:${missing[0]}`,
          )
        : vscode.l10n.t(
            'DB Probe: {0} are not in this VS Code\'s secret storage, so the query cannot connect there. Run "DB Probe: Add Connection" with those names first.',
            missing.map((m) => `secret:${m}`).join(', '),
          ),
    );
    return;
  }
  const snapshot = await services.targets.get();
  const plan = buildPlan(
    specs,
    ['initial', 'subsequent'],
    services.targets.planSettings(),
    snapshot.fileConfig,
    services.registry.ids(),
  );
  if (!plan.ok) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        'DB Probe: this query cannot be probed as it is: {0}. Fix the dbprobe.* settings or dbprobe.json.',
        plan.problem,
      ),
    );
    return;
  }
  const before = (await services.runs.latest())?.id;
  await runProbe(services, plan.plan, services.local);
  await rememberFigures(services, memory, statement, text, before);
}

/** The selection's statement, else the one under the cursor (the keybinding's case). */
function selectedStatement(): { statement: FoundStatement; hints: DriverHint[] } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const { document, selection } = editor;
  const statement = selection.isEmpty
    ? statementAt(documentStatements(document), document.offsetAt(selection.active))
    : statementFromSelection(
        document.getText(selection),
        document.languageId,
        document.offsetAt(selection.start),
      );
  if (!statement) return undefined;
  const head = document.getText(
    new vscode.Range(new vscode.Position(0, 0), document.positionAt(MAX_SCAN_CHARS)),
  );
  return { statement, hints: fileDriverHints(head, document.languageId) };
}

/** The driver hints of an open document, by its URI (the lens's argument); none when it is closed. */
function driverHintsOf(uri: string): DriverHint[] {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  if (!document) return [];
  const head = document.getText(
    new vscode.Range(new vscode.Position(0, 0), document.positionAt(MAX_SCAN_CHARS)),
  );
  return fileDriverHints(head, document.languageId);
}

async function pickTargets(
  services: Services,
  memory: LensMemory,
  statement: FoundStatement,
  hints: readonly DriverHint[],
): Promise<ResolvedTarget[] | undefined> {
  const { family } = statement;
  const snapshot = await services.targets.get();
  const usable = snapshot.targets.filter((t) => t.issues.length === 0);
  const choice = chooseTargets(
    statement,
    hints,
    usable.map((t) => {
      const info = services.registry.info(t.spec.driver);
      return {
        name: t.spec.name,
        driver: t.spec.driver,
        family: info?.family,
        dialect: info?.dialect,
      };
    }),
    (key) => memory.targets(key),
  );
  if (choice.offered.length === 0) {
    const ADD = vscode.l10n.t('Add Connection');
    const why = choice.written
      ? vscode.l10n.t(
          'it is written in {0} ({1}), and {2}',
          choice.written.dialects,
          choice.written.seen.join(', '),
          choice.left.map((l) => l.why).join(', '),
        )
      : vscode.l10n.t('no target uses a {0} driver', FAMILY_DRIVERS[family]);
    const answer = await vscode.window.showWarningMessage(
      family === 'redis'
        ? vscode.l10n.t(
            'DB Probe: no target can run this command: {0}. Add a connection whose driver runs it first; its target then appears here.',
            why,
          )
        : vscode.l10n.t(
            'DB Probe: no target can run this query: {0}. Add a connection whose driver runs it first; its target then appears here.',
            why,
          ),
      ADD,
    );
    if (answer === ADD) await vscode.commands.executeCommand('dbprobe.addConnection');
    return undefined;
  }
  for (const l of choice.left) services.log.info(`probe this query: not offered on ${l.why}`);
  const byName = new Map(usable.map((t) => [t.spec.name, t]));
  const picked = await vscode.window.showQuickPick(
    choice.offered.map((o) => {
      const t = byName.get(o.name)!;
      return {
        label: o.name,
        description: [
          t.spec.driver,
          describeSource(t.source),
          t.spec.allowWrites ? vscode.l10n.t('allows writes') : undefined,
          o.fit,
        ]
          .filter(Boolean)
          .join(' · '),
        picked: o.ticked,
        target: t,
      };
    }),
    {
      canPickMany: true,
      title: vscode.l10n.t('Probe this query: targets'),
      placeHolder: choice.basis
        ? vscode.l10n.t('{0}. Runs initial + subsequent; the pick is remembered', capitalised(choice.basis))
        : vscode.l10n.t('Targets to run it on (initial + subsequent); remembered for this workspace'),
      ignoreFocusOut: true,
    },
  );
  if (!picked || picked.length === 0) return undefined;
  await memory.rememberTargets(
    choice.memoryKey,
    picked.map((p) => p.label),
  );
  return picked.map((p) => p.target);
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Asks for each placeholder's value, offering the last one; undefined when the user backs out. */
async function fillParameters(memory: LensMemory, statement: FoundStatement): Promise<string | undefined> {
  const parameters = statement.parameters ?? [];
  const names = parameterNames(parameters);
  if (names.length === 0) return statement.text;
  const key = statementKey(statement.family, statement.text);
  const remembered = memory.samples(key);
  const values: Record<string, string> = {};
  for (const [i, name] of names.entries()) {
    const value = await vscode.window.showInputBox({
      title: vscode.l10n.t('Probe this query: sample value for {0} ({1}/{2})', name, i + 1, names.length),
      prompt: vscode.l10n.t(
        '{0}. A number, true/false/null, or text (quoted for you).',
        oneLine(statement.text),
      ),
      value: remembered[name] ?? '',
      ignoreFocusOut: true,
      validateInput: (v) => {
        const filled = fillSqlParameters('?', [{ name, start: 0, end: 1 }], { [name]: v });
        return filled.ok ? undefined : filled.problem;
      },
    });
    if (value === undefined) return undefined;
    values[name] = value;
  }
  const filled = fillSqlParameters(statement.text, parameters, values);
  if (!filled.ok) {
    void vscode.window.showErrorMessage(vscode.l10n.t('DB Probe: {0}.', filled.problem));
    return undefined;
  }
  await memory.rememberSamples(key, values);
  return filled.text;
}

/** Refuses writes where they are not allowed and asks before running one anywhere. */
async function gate(
  targets: ResolvedTarget[],
  classification: Classification,
  text: string,
  services: Services,
): Promise<ResolvedTarget[] | undefined> {
  const { allowed, refused, needsConfirmation } = gateWrites(targets, classification);
  for (const r of refused) services.log.warn(`probe this query: refused on ${r.why}`);
  if (allowed.length === 0) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        'DB Probe: refused: this {0} is not read-only, and {1}.',
        classification.verb || vscode.l10n.t('statement'),
        refused.map((r) => r.why).join('; '),
      ),
    );
    return undefined;
  }
  if (!needsConfirmation) return allowed;
  const names = allowed.map((t) => `"${t.spec.name}"`).join(', ');
  const { iterations, warmup } = services.targets.planSettings();
  const times =
    typeof iterations === 'number'
      ? iterations + (typeof warmup === 'number' ? warmup : 0)
      : vscode.l10n.t('many');
  const RUN = vscode.l10n.t('Run on {0}', allowed.map((t) => t.spec.name).join(', '));
  const refusedLine =
    refused.length > 0 ? `\n\n${vscode.l10n.t('Refused: {0}.', refused.map((r) => r.why).join('; '))}` : '';
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('DB Probe: this {0} is not read-only. Run it on {1}?', classification.verb, names),
    {
      modal: true,
      detail: `${oneLine(text)}\n\n${vscode.l10n.t(
        'It runs {0} times per kind (initial and subsequent) on {1}, and every sample writes ({2}).',
        times,
        names,
        classification.reason,
      )}${refusedLine}`,
    },
    RUN,
  );
  return choice === RUN ? allowed : undefined;
}

/** The new run's figures become the lens's: only when the newest run is this query's. */
async function rememberFigures(
  services: Services,
  memory: LensMemory,
  statement: FoundStatement,
  text: string,
  before: string | undefined,
): Promise<void> {
  const latest = await services.runs.latest();
  if (!latest || latest.id === before) return;
  const result = await services.runs.load(latest.id);
  if (!result || !result.targets.every((t) => t.query === text)) return;
  await memory.rememberQueryRun(result.id);
  const redact = (m: string) => services.log.redactor.redact(m);
  const record: LensRecord = {
    runId: result.id,
    at: result.startedAt,
    targets: result.targets.flatMap((t) => {
      const picked = pickFigures(t.name, result.measurements);
      if (!picked) return [];
      // The driver lets the lens answer first for the target the file's own driver reaches.
      const figures = { ...picked, driver: t.driver };
      const clean = figures.failure
        ? { ...figures, failure: { ...figures.failure, message: redact(figures.failure.message) } }
        : figures;
      return withProjection(clean, result.measurements);
    }),
  };
  await memory.remember(statementKey(statement.family, statement.text), record);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
