/**
 * The installable CLI package as a user gets it from a fresh clone: the repository's files (tracked
 * and new, never built) copied to a folder of their own, where `npm pack` in packages/cli first
 * refuses, saying to run `npm ci`, then (with the dependencies installed) builds the package itself
 * (its `prepack`). The tarball installed with `npm i -D` into an empty project, from npm's local cache
 * where it holds everything (`--offline`; from the registry npm is configured with otherwise, and the
 * test says so), then `npx dbprobe --help`, `npx dbprobe demo` and `npx dbprobe run` against the
 * testbed's PostgreSQL from that project, and the config schema where `"$schema"` points.
 * Prints the tarball's size and its unpacked size (goal: at most 4.25 MB without dependencies: the
 * CLI, and a minified copy of each database client that stands in when the project has none).
 *
 * The database clients are optional peer dependencies: the empty project gets none, and its run
 * measures the bundled pg, saying so; an app with `pg` pinned to an older version keeps it through
 * the install (npm neither upgrades it nor nests another copy), and its run measures and records
 * that version, with no mysql2 anywhere in its tree.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { DRIVER_CATALOG } from '../../src/drivers/catalog';
import type { RunResult } from '../../src/shared/result';
import { tempDir } from '../helpers/tempDir';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';

/** npm's settings and the TLS trust and proxy it reaches the registry through (a CI runner's, this machine's). */
const NPM_ENV = /^(npm_config_\w+|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|NO_PROXY)$/i;
const ROOT = path.resolve(__dirname, '../..');
const PACKAGE_DIR = path.join(ROOT, 'packages/cli');
/**
 * 4 MB until 2026-11-29, when the database's own time (a reader in each driver bundle), the measured
 * verdict and the prom-client exposition took the package to 4.07 MB: raised to 4.25 MB, not more.
 * cliThread.js and runnerThread.js are one bundle shipped twice (130 KB): sharing it is the saving
 * to make before this moves again.
 */
const MAX_UNPACKED_BYTES = 4.25 * 1024 * 1024;
/** An older pg than the repository's, pinned by the app: what the run must measure. */
const APP_PG = '8.11.3';
/** The tarball the first test packs; the second installs it into an app of its own. */
let tarball: string | undefined;

interface Done {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (bounded), with the environment given plus PATH, HOME and npm's config. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 240_000) {
  return new Promise<Done>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        // npm's settings and the machine's TLS trust and proxy (how npm reaches its registry) pass through.
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => NPM_ENV.test(k))),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** What a clone of this checkout holds: every tracked or new file (not ignored ones), nothing built. */
function cloneOfCheckout(into: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  })
    .split('\0')
    .filter((file) => file !== '' && existsSync(path.join(ROOT, file)));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(into, file)), { recursive: true });
    copyFileSync(path.join(ROOT, file), path.join(into, file));
  }
}

test(
  'a fresh clone: npm pack refuses until npm ci, then builds; npm i -D in an empty project -> npx dbprobe',
  { timeout: 600_000 },
  async () => {
    const work = tempDir('package');
    const clone = path.join(work, 'clone');
    cloneOfCheckout(clone);
    const cloneCli = path.join(clone, 'packages/cli');
    assert.ok(!existsSync(path.join(cloneCli, 'dist')), 'the clone holds nothing built');

    // Before `npm ci`: refused, with what to do, and no tarball.
    const refused = await run('npm', ['pack', '--pack-destination', work], cloneCli);
    assert.notEqual(refused.code, 0, 'npm pack without the dependencies must fail');
    assert.match(
      refused.stderr,
      /dbprobe prepack: .*not installed\. Run `npm ci` in .*, then `npm pack` here again/,
    );
    // The root is the extension: its pack is refused too, pointing at packages/cli.
    const root = await run('npm', ['pack', '--pack-destination', work], clone);
    assert.notEqual(root.code, 0);
    assert.match(root.stderr, /The dbprobe CLI package is packages\/cli: run `npm pack` there/);

    // After `npm ci` (this checkout's install stands in for it): the pack builds the package.
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'), 'dir');
    const packed = await run('npm', ['pack', '--json', '--pack-destination', work], cloneCli);
    assert.equal(packed.code, 0, packed.stderr);
    const [info] = JSON.parse(packed.stdout) as {
      filename: string;
      size: number;
      unpackedSize: number;
      files: { path: string }[];
    }[];
    assert.ok(info);
    console.log(
      `package ${info.filename}: tarball ${(info.size / 1024).toFixed(1)} kB, unpacked ${(info.unpackedSize / 1024).toFixed(1)} kB, ${info.files.length} files`,
    );
    assert.ok(info.unpackedSize <= MAX_UNPACKED_BYTES, `unpacked ${info.unpackedSize} bytes > 4.25 MB`);
    const driverFiles = DRIVER_CATALOG.map((d) => `dist/drivers/${d.module}.js`);
    assert.deepEqual(
      info.files.map((f) => f.path).sort(),
      [
        'CHANGELOG.md',
        'LICENSE',
        'README.md',
        'dist/cli.js',
        // The probing threads' entries (--threads): each runs a share of a load level.
        'dist/cliThread.js',
        'dist/runner.js',
        'dist/runnerThread.js',
        // Each driver, lazily loaded, with the bundled copy of its client.
        ...driverFiles,
        'package.json',
        'schema/dbprobe.schema.json',
        'schema/run-result.schema.json',
      ].sort(),
    );
    tarball = path.join(work, info.filename);

    const project = path.join(work, 'project');
    await run('mkdir', ['-p', project], work);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'probe-user', private: true }));
    const install = (mode: string) =>
      run(
        'npm',
        ['install', '--save-dev', '--no-audit', '--no-fund', mode, path.join(work, info.filename)],
        project,
      );
    // Network-free where npm's cache holds every dependency; the registry only for what it lacks.
    let installed = await install('--offline');
    if (installed.code !== 0 && /ENOTCACHED/.test(installed.stderr)) {
      console.log('npm i --offline: the local cache lacks a dependency; installing with --prefer-offline');
      installed = await install('--prefer-offline');
    } else console.log('npm i --offline: installed from the local cache, no network');
    assert.equal(installed.code, 0, installed.stderr);
    const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')) as {
      devDependencies?: Record<string, string>;
    };
    assert.match(manifest.devDependencies?.dbprobe ?? '', /dbprobe-.*\.tgz$/);
    assert.ok(!existsSync(path.join(project, 'node_modules/vscode')), 'no vscode in the tree');
    assert.ok(!existsSync(path.join(project, 'node_modules/@types/vscode')), 'no vscode types in the tree');

    // The first thing a user types, in a project that has nothing else.
    const help = await run('npx', ['--no', 'dbprobe', '--', '--help'], project);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^dbprobe \d+\.\d+\.\d+: how long will my app wait for this database/);
    assert.match(help.stdout, /dbprobe run \[options\]/);
    // "$schema": "./node_modules/dbprobe/schema/dbprobe.schema.json" finds the repository's schema.
    assert.equal(
      readFileSync(path.join(project, 'node_modules/dbprobe/schema/dbprobe.schema.json'), 'utf8'),
      readFileSync(path.join(ROOT, 'schema/dbprobe.schema.json'), 'utf8'),
    );
    const pkg = JSON.parse(readFileSync(path.join(project, 'node_modules/dbprobe/package.json'), 'utf8')) as {
      repository?: unknown;
    };
    assert.ok(pkg.repository, 'the installed manifest names its repository');
    assert.match(readFileSync(path.join(project, 'node_modules/dbprobe/LICENSE'), 'utf8'), /^MIT License/);

    const pgUrl = testbedEnv('DBPROBE_TEST_PG_URL');
    // --no: npx must find the installed bin, never fetch a package of that name.
    const version = await run('npx', ['--no', 'dbprobe', '--', '--version'], project);
    assert.equal(
      version.stdout.trim(),
      JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')).version,
    );

    const demo = await run('npx', ['--no', 'dbprobe', 'demo', '-n', '20'], project, {
      DBPROBE_TEST_PG_URL: pgUrl,
    });
    assert.equal(demo.code, 0, demo.stderr);
    assert.match(demo.stdout, /# Database latency/);
    assert.match(
      demo.stdout,
      /libsql/,
      'the embedded libSQL database (native engine from the registry) was probed',
    );
    assert.match(
      demo.stdout,
      /postgres \(pg\)/,
      'the testbed PostgreSQL named in the environment was probed',
    );

    writeFileSync(
      path.join(project, 'dbprobe.json'),
      JSON.stringify({
        targets: [{ name: 'testbed pg', driver: 'pg', connection: 'env:DATABASE_URL' }],
        kinds: ['initial', 'subsequent'],
        iterations: 20,
        warmup: 2,
      }),
    );
    const probed = await run(
      'npx',
      [
        '--no',
        'dbprobe',
        'run',
        '-q',
        '--format',
        'json',
        '--out',
        'result.json',
        '--threshold',
        '*:subsequent:p95<10s',
      ],
      project,
      { DATABASE_URL: pgUrl },
    );
    assert.equal(probed.code, 0, probed.stderr);
    const result = JSON.parse(readFileSync(path.join(project, 'result.json'), 'utf8')) as RunResult;
    for (const kind of ['initial', 'subsequent'] as const) {
      const m = result.measurements.find((x) => x.kind === kind);
      assert.equal(m?.stats.count, 20, `${kind}: 20 samples from the installed CLI`);
    }
    // The project installed no pg: the bundled copy was measured, and the run says so.
    assert.ok(!existsSync(path.join(project, 'node_modules/pg')), 'the CLI installed no pg into the app');
    const bundledPg = JSON.parse(
      readFileSync(path.join(ROOT, 'node_modules/pg/package.json'), 'utf8'),
    ).version;
    assert.deepEqual(
      { ...result.environment.drivers.pg, note: undefined },
      { package: 'pg', version: bundledPg, source: 'bundled', note: undefined },
    );
    assert.match(
      probed.stderr,
      /dbprobe: pg is not installed in your project; measured with the pg \S+ bundled with dbprobe\. Install the version your app uses \(npm install pg\)/,
    );

    // The runner's bin starts and refuses to serve without its token (nothing listens, nothing to stop).
    const runner = await run('npx', ['--no', 'dbprobe-runner'], project, {}, 60_000);
    assert.equal(runner.code, 2, runner.stderr);
    assert.match(runner.stderr, /DBPROBE_TOKEN/);
    assertNoSecret([
      demo.stdout,
      demo.stderr,
      probed.stdout,
      probed.stderr,
      readFileSync(path.join(project, 'result.json'), 'utf8'),
    ]);
  },
);

test(
  `an app with pg pinned to ${APP_PG}: installing the CLI leaves it, and a run measures and records it`,
  { timeout: 600_000 },
  async (t) => {
    if (!tarball) return t.skip('the package was not packed (the test above failed)');
    const app = path.join(tempDir('package-app'), 'app');
    mkdirSync(app, { recursive: true });
    writeFileSync(
      path.join(app, 'package.json'),
      JSON.stringify({ name: 'an-app', private: true, dependencies: { pg: APP_PG } }),
    );
    const pgInstall = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], app);
    assert.equal(pgInstall.code, 0, pgInstall.stderr);
    const pgOfApp = () =>
      JSON.parse(readFileSync(path.join(app, 'node_modules/pg/package.json'), 'utf8')).version as string;
    assert.equal(pgOfApp(), APP_PG);

    const installed = await run(
      'npm',
      ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', tarball],
      app,
    );
    assert.equal(installed.code, 0, installed.stderr);
    // The app's pg as it was: not upgraded, not declared anew, no second copy nested for the CLI.
    assert.equal(pgOfApp(), APP_PG, "the install changed the app's pg");
    const manifest = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    assert.deepEqual(manifest.dependencies, { pg: APP_PG });
    assert.ok(
      !existsSync(path.join(app, 'node_modules/dbprobe/node_modules/pg')),
      'no pg nested for the CLI',
    );
    // An app without mysql2 (nor any other client it did not ask for).
    for (const absent of ['mysql2', 'mongodb', 'ioredis', '@neondatabase/serverless'])
      assert.ok(!existsSync(path.join(app, 'node_modules', absent)), `${absent} was installed`);

    writeFileSync(
      path.join(app, 'dbprobe.json'),
      JSON.stringify({
        targets: [{ name: 'app pg', driver: 'pg', connection: 'env:DATABASE_URL' }],
        kinds: ['initial', 'subsequent'],
        iterations: 10,
        warmup: 1,
      }),
    );
    const probed = await run(
      'npx',
      ['--no', 'dbprobe', 'run', '-q', '--format', 'json', '--out', 'result.json'],
      app,
      { DATABASE_URL: testbedEnv('DBPROBE_TEST_PG_URL') },
    );
    assert.equal(probed.code, 0, probed.stderr);
    const result = JSON.parse(readFileSync(path.join(app, 'result.json'), 'utf8')) as RunResult;
    for (const kind of ['initial', 'subsequent'] as const)
      assert.equal(result.measurements.find((x) => x.kind === kind)?.stats.count, 10, kind);
    assert.deepEqual(result.environment.drivers.pg, { package: 'pg', version: APP_PG, source: 'project' });
    assert.doesNotMatch(probed.stderr, /bundled with dbprobe/);
    // The Markdown names it the same way.
    const markdown = await run(
      'npx',
      ['--no', 'dbprobe', 'run', '-q', '-n', '3', '--format', 'markdown'],
      app,
      {
        DATABASE_URL: testbedEnv('DBPROBE_TEST_PG_URL'),
      },
    );
    assert.equal(markdown.code, 0, markdown.stderr);
    assert.match(markdown.stdout, new RegExp(`pg ${APP_PG.replace(/\./g, '\\.')} from your project`));
    assertNoSecret([
      probed.stdout,
      probed.stderr,
      markdown.stdout,
      readFileSync(path.join(app, 'result.json'), 'utf8'),
    ]);
  },
);
