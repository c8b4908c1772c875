/**
 * The minimal fixture extension (test/fixtures/minimal-extension) as a .vsix, packaged with vsce
 * the way the real one is, so code-server installs it beside DB Probe through the same path.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from './extensionSetup';

const SOURCE = path.join(ROOT, 'test', 'fixtures', 'minimal-extension');
export const FIXTURE_EXTENSION_NAME = 'DB Probe Minimal Fixture';

export function packageFixtureExtension(): string {
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'dbprobe-fixture-ext-'));
  fs.cpSync(SOURCE, stage, { recursive: true });
  const out = path.join(stage, 'minimal-fixture.vsix');
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'),
      'package',
      '--out',
      out,
      '--no-dependencies',
      '--allow-missing-repository',
      '--skip-license',
    ],
    { cwd: stage, stdio: ['ignore', 'ignore', 'inherit'], timeout: 120_000 },
  );
  return out;
}
