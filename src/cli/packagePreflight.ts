/**
 * Set-up errors of the project's own packages, said before anything connects. A driver's npm client
 * is the project's when it has one (src/drivers/packageSource.ts): one too old for the driver failed
 * every sample in words of its internals. An ORM layer runs the project's own package (src/drivers/layers/layerImport.ts). One that is
 * missing, or of a version the layer was not written for, used to surface as failed samples of the
 * twin beside a measured raw target, with a driver's hint; a layer asked of a runner, as "install
 * it in your project" though it was. All three are set-up errors, refused before anything connects.
 */
import type { DriverRegistry } from '../core/driver';
import { locateInProject } from '../drivers/packageSource';
import { layerInfo } from '../shared/layerCatalog';
import type { PackageLookup } from '../shared/packageLookup';
import type { PlanSpec } from '../shared/plan';
import { CliError } from './cliError';

export function checkLayerPackages(plan: PlanSpec, lookup: PackageLookup, onRunners: boolean): void {
  for (const target of plan.targets) {
    if (target.orm === undefined || target.rawTwin !== undefined) continue;
    const info = layerInfo(target.orm);
    const range = `${info.packageName} ${info.supported.from} or later, below ${info.supported.below}`;
    const who = `target "${target.name}" goes through the "${target.orm}" layer`;
    const fix = `or remove "orm" from the target; nothing was measured yet`;
    if (onRunners)
      throw new CliError(
        `${who}, which runs your project's own ${info.packageName} on this machine: a runner has no project, so layers do not run there; drop --runner for it, ${fix}`,
      );
    const copy = locateInProject(info.packageName, lookup.projectDirs);
    if (!copy)
      throw new CliError(
        `${who}, which runs your project's own ${info.packageName} (${info.supported.from} or later, below ${info.supported.below}), and it is not installed in your project (looked from ${lookup.projectDirs.join(', ')}); install it (npm install ${info.packageName}@^${info.supported.from}), ${fix}`,
      );
    if (!within(copy.version, info.supported.from, info.supported.below))
      throw new CliError(
        `${who}, which supports ${range}, and your project has ${info.packageName} ${copy.version} (${copy.root}); install a supported version (npm install ${info.packageName}@^${info.supported.from}), ${fix}`,
      );
  }
}

/** Each driver the run uses whose npm client the project holds in a version it does not support. */
export function checkDriverPackages(plan: PlanSpec, lookup: PackageLookup, registry: DriverRegistry): void {
  for (const id of new Set(plan.targets.map((t) => t.driver))) {
    const info = registry.info(id);
    if (!info?.supported) continue;
    const copy = locateInProject(info.packageName, lookup.projectDirs);
    if (!copy || within(copy.version, info.supported.from, info.supported.below)) continue;
    const names = plan.targets.filter((t) => t.driver === id).map((t) => `"${t.name}"`);
    throw new CliError(
      `driver ${id} (target ${names.join(', ')}) supports ${info.packageName} ${info.supported.from} or later, below ${info.supported.below}, and your project has ${info.packageName} ${copy.version} (${copy.root}), which dbprobe measures with as your app would; upgrade it (npm install ${info.packageName}@^${info.supported.from}), or run dbprobe from a folder outside the project to measure with the ${info.packageName} bundled with dbprobe; nothing was measured yet`,
    );
  }
}

/** `from <= version < below`, on the numeric major.minor.patch (a pre-release counts as its release). */
function within(version: string, from: string, below: string): boolean {
  const v = numbers(version);
  return compare(v, numbers(from)) >= 0 && compare(v, numbers(below)) < 0;
}

function numbers(version: string): number[] {
  return (version.split(/[-+]/)[0] ?? '').split('.').map((part) => Number(part) || 0);
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < 3; i += 1) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
