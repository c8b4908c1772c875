/**
 * "DB Probe: Try the Demo Database": probes an embedded libSQL file in the extension's global
 * storage, so a new user sees the whole flow with nothing to set up and no traffic leaving the machine.
 */
import * as vscode from 'vscode';
import { PLAN_DEFAULTS } from '../../shared/plan';
import { buildPlan } from '../config/planSettings';
import { runProbe } from '../probe/runProbe';
import type { Services } from '../services';

export const DEMO_REFERENCE = 'env:DBPROBE_DEMO_LIBSQL_URL';
const DEMO_NAME = 'demo (embedded libSQL)';

export async function demoCommand(services: Services): Promise<void> {
  // The driver that opens `file:` databases, found through the registry rather than by name.
  const driver = services.registry.ids().find((id) => services.registry.info(id)?.schemes.includes('file'));
  if (!driver) {
    void vscode.window.showErrorMessage(
      'DB Probe: no installed driver opens an embedded database file, so the demo cannot run. Add a connection to a real database instead.',
    );
    return;
  }
  const folder = services.context.globalStorageUri;
  await vscode.workspace.fs.createDirectory(folder);
  services.builtInConnections.set(DEMO_REFERENCE, `file:${vscode.Uri.joinPath(folder, 'demo.db').fsPath}`);
  const plan = buildPlan(
    [{ name: DEMO_NAME, driver, connection: DEMO_REFERENCE }],
    [...PLAN_DEFAULTS.kinds],
    services.targets.planSettings(),
    undefined,
    services.registry.ids(),
  );
  if (!plan.ok) {
    void vscode.window.showErrorMessage(
      `DB Probe: the probe settings have problems: ${plan.problem}. Fix the dbprobe.* settings.`,
    );
    return;
  }
  await runProbe(services, plan.plan, services.local);
}
