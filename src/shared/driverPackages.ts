/**
 * How every surface names the driver packages a run measured: "pg 8.11.3 from your project",
 * "pg 8.23.1 (bundled)". One wording, read from the result (environment.drivers).
 */
import type { DriverVersion, RunEnvironment } from './result';

/** What the editor calls the project: its workspace. */
export const WORKSPACE_WORDS = 'your workspace';

/** `projectWords`: what the surface calls the project ("your project", "your workspace"). */
export function driverPackageLabel(driver: DriverVersion, projectWords = 'your project'): string {
  const base = `${driver.package} ${driver.version}`;
  if (driver.source === 'project')
    return driver.folder !== undefined
      ? `${base} from ${driver.folder} (outside ${projectWords})`
      : `${base} from ${projectWords}`;
  if (driver.source === 'bundled') return `${base} (bundled with dbprobe)`;
  return base;
}

/** Each package once (neon-http and neon-ws share one), labelled. */
export function driverPackageLabels(env: RunEnvironment, projectWords?: string): string[] {
  return [...new Set(Object.values(env.drivers).map((d) => driverPackageLabel(d, projectWords)))];
}

/** The notes saying a bundled copy stood in for the project's, each once. */
export function driverPackageNotes(env: RunEnvironment): string[] {
  return [...new Set(Object.values(env.drivers).flatMap((d) => (d.note ? [d.note] : [])))];
}
