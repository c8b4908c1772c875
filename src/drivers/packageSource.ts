/**
 * Which copy of a driver's npm client a run measures. An app runs the driver version it installed,
 * so that is the one to measure: each client is looked up from the project first (the folders the
 * surface names: the config file's and the working directory for the CLI, a trusted workspace's for
 * the editor), as the app's own `require` would find it, and loaded from there. Only when the
 * project has none does the copy bundled with dbprobe stand in, and the result says so. Every
 * driver loads its client through here (and anything else that loads an app's package should too),
 * so the choice, and what the result records of it, is made in one place.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DriverClientPackage } from '../core/driver';
import type { PackageLookup } from '../shared/packageLookup';
import type { DriverPackageSource } from '../shared/result';
import { installedVersion } from './packageVersion';

export const NO_PROJECT: PackageLookup = { projectDirs: [] };

/** The project's copy of a package: the file its `require` loads and the package's version. */
export interface ProjectCopy {
  file: string;
  version: string;
  /** The package's own folder. */
  root: string;
}

/** `@scope/name/sub` -> `@scope/name`; `name/sub` -> `name`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return (specifier.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
}

/** The folder of the package `name` that holds `file`, with its version (walking up from the file). */
function owningPackage(file: string, name: string): { root: string; version: string } | undefined {
  let dir = path.dirname(file);
  for (let depth = 0; depth < 32; depth++) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === name && typeof manifest.version === 'string')
        return { root: dir, version: manifest.version };
    } catch {
      // No package.json here (a lib/ folder): keep walking up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/** Finds `specifier` as code in one of `dirs` would `require` it; undefined when none has it. */
export function locateInProject(specifier: string, dirs: readonly string[]): ProjectCopy | undefined {
  const name = packageNameOf(specifier);
  for (const dir of dirs) {
    let file: string;
    try {
      // A file name inside the folder: createRequire resolves from that file's folder up.
      file = createRequire(path.join(path.resolve(dir), 'noop.js')).resolve(specifier);
    } catch {
      continue;
    }
    const owner = owningPackage(file, name);
    if (owner) return { file, ...owner };
  }
  return undefined;
}

/**
 * Where a project copy was found when it is in none of the project's folders (the app's `require`
 * also walks up, so a parent folder's node_modules answers): that node_modules folder, so results
 * name it instead of calling it the workspace's. Undefined for a copy inside a project folder.
 */
export function folderOutside(root: string, dirs: readonly string[]): string | undefined {
  const inside = dirs.some((dir) => {
    const relative = path.relative(path.resolve(dir), root);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  });
  if (inside) return undefined;
  const at = root.indexOf(`${path.sep}node_modules${path.sep}`);
  return at >= 0 ? root.slice(0, at + `${path.sep}node_modules`.length) : path.dirname(root);
}

/** The source a project copy makes: its version, and its folder when that is outside the project. */
function projectSource(name: string, found: ProjectCopy, lookup: PackageLookup): DriverPackageSource {
  const folder = lookup.foldersBound ? folderOutside(found.root, lookup.projectDirs) : undefined;
  return { package: name, version: found.version, source: 'project', ...(folder ? { folder } : {}) };
}

/** True when `dir` or a folder above it holds a package.json: an npm project an app lives in. */
function insideNpmProject(dir: string): boolean {
  let current = path.resolve(dir);
  for (let depth = 0; depth < 64; depth++) {
    if (existsSync(path.join(current, 'package.json'))) return true;
    const parent = path.dirname(current);
    if (parent === current) return false;
    current = parent;
  }
  return false;
}

/** What a run calls the project ("your project", "your workspace"). */
export function projectWords(lookup: PackageLookup): string {
  return lookup.projectLabel ?? 'your project';
}

/** What a run with `lookup` would use for `specifier`, without loading anything. */
export function packageSourceFor(specifier: string, lookup: PackageLookup): DriverPackageSource | undefined {
  const name = packageNameOf(specifier);
  const found = locateInProject(specifier, lookup.projectDirs);
  if (found) return projectSource(name, found, lookup);
  const bundled = installedVersion(name);
  if (!bundled) return undefined;
  return {
    package: name,
    version: bundled,
    source: 'bundled',
    // "Not installed in your project" only where there is a project: a config in a bare folder (a
    // global install, a scratch directory) has no app whose version could differ.
    ...(lookup.projectDirs.some(insideNpmProject)
      ? {
          note: `${name} is not installed in ${projectWords(lookup)}; measured with the ${name} ${bundled} bundled with dbprobe. Install the version your app uses (npm install ${name}) to measure that one.`,
        }
      : lookup.bundledBecause
        ? { note: `measured with the ${name} ${bundled} bundled with dbprobe: ${lookup.bundledBecause}.` }
        : {}),
  };
}

/** Says which package to install, and where: the error a run shows when no copy loads at all. */
export function missingPackageMessage(name: string, lookup: PackageLookup, reason: string): string {
  const where =
    lookup.projectDirs.length > 0
      ? `neither installed in ${projectWords(lookup)} (looked from ${lookup.projectDirs.join(', ')}) nor bundled with dbprobe`
      : 'not installed beside dbprobe';
  return `the npm package ${name} is ${where} (${reason}). Install it in your project: npm install ${name}`;
}

/** Loads a file the way the app would: `require`, or `import()` for an ES module-only entry. */
async function loadFile(file: string): Promise<unknown> {
  try {
    return createRequire(file)(file);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_REQUIRE_ESM') throw error;
    return import(pathToFileURL(file).href);
  }
}

/**
 * `specifier` loaded from the project only, with the copy's version: for an app's own library (an ORM
 * layer), which no bundled copy stands in for. Undefined when the project has none.
 */
export async function loadFromProject<T>(
  specifier: string,
  lookup: PackageLookup,
): Promise<{ module: T; source: DriverPackageSource } | undefined> {
  const found = locateInProject(specifier, lookup.projectDirs);
  if (!found) return undefined;
  const module = (await loadFile(found.file)) as T;
  return { module, source: projectSource(packageNameOf(specifier), found, lookup) };
}

/**
 * One npm client a driver uses (a package or one of its subpaths). `bundled` is the driver's own
 * `require` of it: the build inlines that copy, so it is there when the project has none.
 */
export class DriverPackage<T> implements DriverClientPackage {
  private loaded: { key: string; module: T; source: DriverPackageSource } | undefined;

  constructor(
    readonly specifier: string,
    private readonly bundled: () => T,
  ) {}

  get name(): string {
    return packageNameOf(this.specifier);
  }

  /** The client, once load() chose it. */
  get module(): T {
    if (!this.loaded) throw new Error(`${this.specifier} was used before the driver loaded it`);
    return this.loaded.module;
  }

  /** Where the loaded client came from (after load()). */
  get source(): DriverPackageSource | undefined {
    return this.loaded?.source;
  }

  /** Chooses the project's copy, else the bundled one; a second call for the same folders is free. */
  async load(lookup: PackageLookup): Promise<DriverPackageSource> {
    // The whole lookup: the same folders with another reason to skip them make another note.
    const key = JSON.stringify(lookup);
    if (this.loaded?.key === key) return this.loaded.source;
    const found = locateInProject(this.specifier, lookup.projectDirs);
    if (found) {
      const module = (await loadFile(found.file)) as T;
      const source = projectSource(this.name, found, lookup);
      this.loaded = { key, module, source };
      return source;
    }
    let module: T;
    try {
      module = this.bundled();
    } catch (error) {
      throw new Error(
        missingPackageMessage(this.name, lookup, error instanceof Error ? error.message : String(error)),
        { cause: error },
      );
    }
    const source = packageSourceFor(this.specifier, lookup) ?? {
      package: this.name,
      version: 'unknown',
      source: 'bundled' as const,
    };
    this.loaded = { key, module, source };
    return source;
  }
}
