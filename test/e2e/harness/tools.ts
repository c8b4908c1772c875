// Where the end-to-end tools live. scripts/e2e/setup.sh installs them and prints DBPROBE_* exports;
// without those variables we look in setup.sh's default cache, so a developer who ran setup.sh once
// does not have to eval its output in every shell.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const CODE_SERVER_VERSION = '4.139.1';

function cacheDir(): string {
  return process.env.DBPROBE_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'dbprobe');
}

function mustExist(file: string, what: string): string {
  if (!fs.existsSync(file)) {
    throw new Error(`${what} not found at ${file}: run \`bash scripts/e2e/setup.sh\` first`);
  }
  return file;
}

/** The wrapper written by setup.sh: runs code-server under Node 24 whatever node is on PATH. */
export function codeServerBin(): string {
  return mustExist(
    process.env.DBPROBE_CODE_SERVER_BIN ??
      path.join(cacheDir(), `code-server-${CODE_SERVER_VERSION}`, 'bin', 'code-server'),
    'code-server',
  );
}

/** Debian's Chromium: Playwright's own browser download is impossible here. */
export function chromiumPath(): string {
  return mustExist(process.env.DBPROBE_CHROMIUM ?? '/usr/bin/chromium', 'chromium');
}

/** vsce from the repo's devDependencies, or from a scratch install named by DBPROBE_VSCE_BIN. */
export function vsceBin(): string {
  const repoRoot = path.resolve(__dirname, '..', '..', '..');
  return mustExist(
    process.env.DBPROBE_VSCE_BIN ?? path.join(repoRoot, 'node_modules', '.bin', 'vsce'),
    'vsce',
  );
}
