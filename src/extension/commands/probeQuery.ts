/**
 * "DB Probe: Probe This Query", from a CodeLens or on a selection: the statement becomes the workload
 * of the targets the user picks (remembered per workspace and family), initial + subsequent, through
 * the same run as the palette's probe (runProbe). Parameters are asked for, prefilled with the last
 * sample. Anything not read-only is refused on targets without `allowWrites` and runs on the others
 * only after a modal confirmation that names them.
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
import type { LensMemory } from '../queries/lensMemory';
import { pickFigures, statementKey, withProjection, type LensRecord } from '../queries/lensText';
import { fillSqlParameters, parameterNames } from '../queries/parameters';
import type { ProbeQueryArgs } from '../queries/queryLensProvider';
import { statementFromSelection, type FoundStatement } from '../queries/statements';
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
  const statement = args?.statement ?? selectedStatement();
  if (!statement) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'DB Probe: select a SQL statement, a Redis command or a Mongo find (or click "Probe this query" above one) to probe it.',
      ),
    );
    return;
  }
  const targets = await pickTargets(services, memory, statement.family);
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
function selectedStatement(): FoundStatement | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const { document, selection } = editor;
  if (selection.isEmpty)
    return statementAt(documentStatements(document), document.offsetAt(selection.active));
  return statementFromSelection(
    document.getText(selection),
    document.languageId,
    document.offsetAt(selection.start),
  );
}

async function pickTargets(
  services: Services,
  memory: LensMemory,
  family: QueryFamily,
): Promise<ResolvedTarget[] | undefined> {
  const snapshot = await services.targets.get();
  const fitting = snapshot.targets.filter(
    (t) => t.issues.length === 0 && services.registry.info(t.spec.driver)?.family === family,
  );
  if (fitting.length === 0) {
    const ADD = vscode.l10n.t('Add Connection');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t(
        'DB Probe: no {0} target to run this on. Add a connection for a {0} driver first; its target then appears here.',
        FAMILY_DRIVERS[family],
      ),
      ADD,
    );
    if (choice === ADD) await vscode.commands.executeCommand('dbprobe.addConnection');
    return undefined;
  }
  const remembered = memory.targets(family);
  const anyRemembered = fitting.some((t) => remembered?.includes(t.spec.name));
  const picked = await vscode.window.showQuickPick(
    fitting.map((t) => ({
      label: t.spec.name,
      description: `${t.spec.driver} · ${describeSource(t.source)}${t.spec.allowWrites ? ` · ${vscode.l10n.t('allows writes')}` : ''}`,
      picked: anyRemembered ? remembered!.includes(t.spec.name) : true,
      target: t,
    })),
    {
      canPickMany: true,
      title: vscode.l10n.t('Probe this query: targets'),
      placeHolder: vscode.l10n.t(
        'Targets to run it on (initial + subsequent); remembered for this workspace',
      ),
      ignoreFocusOut: true,
    },
  );
  if (!picked || picked.length === 0) return undefined;
  await memory.rememberTargets(
    family,
    picked.map((p) => p.label),
  );
  return picked.map((p) => p.target);
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
  const record: LensRecord = {
    runId: result.id,
    at: result.startedAt,
    targets: result.targets.flatMap((t) => {
      const figures = pickFigures(t.name, result.measurements);
      return figures ? withProjection(figures, result.measurements) : [];
    }),
  };
  await memory.remember(statementKey(statement.family, statement.text), record);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
