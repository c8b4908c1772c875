/**
 * Where targets come from in the editor, merged into one list: the workspace's dbprobe.json, the
 * workspace's `dbprobe.targets` setting and the user's. Pure, so the rules are tested without VS Code.
 *
 * Targets a workspace defines need the user's consent in an untrusted workspace: a cloned repository
 * could name the user's own `secret:prod` connection with a destructive query, and probing runs it.
 */
import * as path from 'node:path';
import { validatePlan } from '../../core/validate/validatePlan';
import { isRecord } from '../../shared/guards';
import type { TargetSpec } from '../../shared/plan';

export type TargetSource = 'file' | 'workspace' | 'user' | 'demo';

export interface ResolvedTarget {
  spec: TargetSpec;
  source: TargetSource;
  /** Problems that keep this target from running; empty when it is fine. */
  issues: string[];
  /** Defined by the workspace (file or workspace settings), so trust rules apply. */
  fromWorkspace: boolean;
}

export interface TargetInputs {
  fileTargets?: unknown;
  workspaceTargets?: unknown;
  userTargets?: unknown;
  knownDrivers: readonly string[];
}

export interface TargetList {
  targets: ResolvedTarget[];
  /** Entries hidden by a target of the same name from a more specific source. */
  shadowed: { name: string; source: TargetSource; by: TargetSource }[];
}

/** The most specific source wins a name: dbprobe.json, then workspace settings, then user settings. */
const ORDER: { key: keyof TargetInputs; source: TargetSource }[] = [
  { key: 'fileTargets', source: 'file' },
  { key: 'workspaceTargets', source: 'workspace' },
  { key: 'userTargets', source: 'user' },
];

export function resolveTargets(inputs: TargetInputs): TargetList {
  const targets: ResolvedTarget[] = [];
  const shadowed: TargetList['shadowed'] = [];
  for (const { key, source } of ORDER) {
    const list = inputs[key];
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const resolved = resolveOne(raw, source, inputs.knownDrivers);
      const winner = targets.find((t) => t.spec.name === resolved.spec.name);
      if (winner) {
        if (winner.source !== source) shadowed.push({ name: resolved.spec.name, source, by: winner.source });
        else
          winner.issues.push(
            `another target in the same ${describeSource(source)} is also named "${resolved.spec.name}"`,
          );
        continue;
      }
      targets.push(resolved);
    }
  }
  return { targets, shadowed };
}

function resolveOne(raw: unknown, source: TargetSource, knownDrivers: readonly string[]): ResolvedTarget {
  const record = isRecord(raw) ? raw : {};
  const validated = validatePlan({ targets: [raw] }, knownDrivers);
  const issues = validated.ok
    ? []
    : validated.issues.map(
        (issue) =>
          `${issue.path.replace(/^targets\[0\](\s*\("[^"]*"\))?\.?/, '') || 'target'}: ${issue.message}`,
      );
  const spec: TargetSpec = validated.ok
    ? validated.value.targets[0]!
    : {
        name: typeof record.name === 'string' && record.name.trim() ? record.name.trim() : '(unnamed target)',
        driver: typeof record.driver === 'string' ? record.driver : '',
        connection: typeof record.connection === 'string' ? record.connection : '',
        ...(typeof record.query === 'string' ? { query: record.query } : {}),
      };
  return { spec, source, issues, fromWorkspace: source === 'file' || source === 'workspace' };
}

/** A target whose relative `tls.caFile` now names the file beside the dbprobe.json in `dir`. */
export function anchorCaFile(raw: unknown, dir: string): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const tls = (raw as { tls?: unknown }).tls;
  if (typeof tls !== 'object' || tls === null) return raw;
  const caFile = (tls as { caFile?: unknown }).caFile;
  if (typeof caFile !== 'string' || caFile === '' || path.isAbsolute(caFile)) return raw;
  return { ...raw, tls: { ...tls, caFile: path.join(dir, caFile) } };
}

export function describeSource(source: TargetSource): string {
  switch (source) {
    case 'file':
      return 'dbprobe.json';
    case 'workspace':
      return 'workspace settings';
    case 'user':
      return 'user settings';
    case 'demo':
      return 'built-in demo';
  }
}

/** The `secret:NAME` a target uses, if it uses one. */
export function secretNameOf(spec: TargetSpec): string | undefined {
  return spec.connection.startsWith('secret:') ? spec.connection.slice('secret:'.length) : undefined;
}

/** Valid as both a target name and a `secret:NAME` reference, so one name serves both. */
export const CONNECTION_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

export function checkConnectionName(name: string, taken: readonly string[]): string | undefined {
  if (!CONNECTION_NAME.test(name)) {
    return 'Use 1-64 letters, digits, "_", "." or "-", starting with a letter or "_" (it becomes secret:NAME).';
  }
  if (taken.includes(name))
    return `A connection named "${name}" exists already: pick another name, or use Edit Connection.`;
  return undefined;
}
