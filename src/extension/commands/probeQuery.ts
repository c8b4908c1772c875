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
import { classify, type Classification, type QueryFamily } from '../queries/classify';
import { fileDriverHints, type DriverHint } from '../queries/fileDrivers';
import type { LensMemory } from '../queries/lensMemory';
import { pickFigures, statementKey, withProjection, type LensRecord } from '../queries/lensText';
import { fillSqlParameters, parameterNames } from '../queries/parameters';
import type { ProbeQueryArgs } from '../queries/queryLensProvider';
import { MAX_SCAN_CHARS, statementFromSelection, type FoundStatement } from '../queries/statements';
import { chooseTargets } from '../queries/targetChoice';
import { gateWrites } from '../queries/writeGate';
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
      'DB Probe: select a SQL statement, a Redis command or a Mongo find (or click "Probe this query" above one) to probe it.',
    );
    return;
  }
  const hints = args?.hints ?? selected?.hints ?? [];
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
      `DB Probe: ${missing.map((m) => `secret:${m}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not in this VS Code's secret storage, so the query cannot connect there. Run "DB Probe: Add Connection" with that name first.`,
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
      `DB Probe: this query cannot be probed as it is: ${plan.problem}. Fix the dbprobe.* settings or dbprobe.json.`,
    );
    return;
  }
  const before = (await services.runs.latest())?.id;
  await runProbe(services, plan.plan, services.local);
  await rememberFigures(services, memory, statement, text, before);
}

function selectedStatement(): { statement: FoundStatement; hints: DriverHint[] } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) return undefined;
  const { document, selection } = editor;
  const statement = statementFromSelection(
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
        ...(info ? { family: info.family } : {}),
        ...(info?.dialect ? { dialect: info.dialect } : {}),
      };
    }),
    (key) => memory.targets(key),
  );
  if (choice.offered.length === 0) {
    const ADD = 'Add Connection';
    const why = choice.written
      ? `it is written in ${choice.written.dialects} (${choice.written.seen.join(', ')}), and ${choice.left.map((l) => l.why).join(', ')}`
      : `no target uses a ${FAMILY_DRIVERS[family]} driver`;
    const answer = await vscode.window.showWarningMessage(
      `DB Probe: no target can run this ${family === 'redis' ? 'command' : 'query'}: ${why}. Add a connection whose driver runs it first; its target then appears here.`,
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
          t.spec.allowWrites ? 'allows writes' : undefined,
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
      title: 'Probe this query: targets',
      placeHolder: choice.basis
        ? `${capitalised(choice.basis)}. Runs initial + subsequent; the pick is remembered`
        : 'Targets to run it on (initial + subsequent); remembered for this workspace',
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
      title: `Probe this query: sample value for ${name} (${i + 1}/${names.length})`,
      prompt: `${oneLine(statement.text)}. A number, true/false/null, or text (quoted for you).`,
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
    void vscode.window.showErrorMessage(`DB Probe: ${filled.problem}.`);
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
      `DB Probe: refused: this ${classification.verb || 'statement'} is not read-only, and ${refused.map((r) => r.why).join('; ')}.`,
    );
    return undefined;
  }
  if (!needsConfirmation) return allowed;
  const names = allowed.map((t) => `"${t.spec.name}"`).join(', ');
  const { iterations, warmup } = services.targets.planSettings();
  const times =
    typeof iterations === 'number' ? iterations + (typeof warmup === 'number' ? warmup : 0) : 'many';
  const RUN = `Run on ${allowed.map((t) => t.spec.name).join(', ')}`;
  const choice = await vscode.window.showWarningMessage(
    `DB Probe: this ${classification.verb} is not read-only. Run it on ${names}?`,
    {
      modal: true,
      detail: `${oneLine(text)}\n\nIt runs ${times} times per kind (initial and subsequent) on ${names}, and every sample writes (${classification.reason}).${refused.length > 0 ? `\n\nRefused: ${refused.map((r) => r.why).join('; ')}.` : ''}`,
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
      const figures = pickFigures(t.name, result.measurements);
      if (!figures) return [];
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
