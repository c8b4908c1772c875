/**
 * The `dbprobe.runners` setting: remote runners by name and URL. Pure, so its rules are tested
 * without VS Code. A runner's token never lives here (it is in SecretStorage); a URL that carries
 * credentials is refused rather than used, because settings are synced, shared and screenshotted.
 */

export interface RunnerSetting {
  name: string;
  /** The runner's base URL, without a trailing slash. */
  url: string;
  /**
   * `secret:NAME` connections this runner has in its own environment, as NAME -> VAR: the target is
   * then sent as `env:VAR` and its connection string never leaves the editor.
   */
  env: Record<string, string>;
}

export interface ParsedRunners {
  runners: RunnerSetting[];
  /** One sentence per entry that was left out, saying what to fix. */
  problems: string[];
}

export const RUNNER_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function parseRunners(raw: unknown): ParsedRunners {
  const runners: RunnerSetting[] = [];
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { runners, problems };
  if (!Array.isArray(raw)) {
    return { runners, problems: ['dbprobe.runners must be a list of {"name", "url"} entries'] };
  }
  raw.forEach((entry: unknown, index) => {
    const where = `dbprobe.runners[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${where} must be an object like {"name": "us-east-1", "url": "https://..."}`);
      return;
    }
    const record = entry as Record<string, unknown>;
    const name = typeof record.name === 'string' ? record.name.trim() : '';
    const nameProblem = checkRunnerName(name, []);
    if (nameProblem) {
      problems.push(`${where}: ${nameProblem}`);
      return;
    }
    if (runners.some((r) => r.name === name)) {
      problems.push(`${where}: another runner is already named "${name}"; names must be unique`);
      return;
    }
    const url = typeof record.url === 'string' ? record.url.trim() : '';
    const urlProblem = checkRunnerUrl(url);
    if (urlProblem) {
      problems.push(`${where} ("${name}"): ${urlProblem}`);
      return;
    }
    const env = parseEnvMap(record.env, `${where} ("${name}").env`, problems);
    runners.push({ name, url: normaliseUrl(url), env });
  });
  return { runners, problems };
}

export function checkRunnerName(name: string, taken: readonly string[]): string | undefined {
  if (!RUNNER_NAME.test(name))
    return 'use 1-64 letters, digits, "_", "." or "-", starting with a letter or "_" (e.g. us-east-1)';
  if (taken.includes(name)) return `a runner named "${name}" exists already`;
  return undefined;
}

/** Why a URL cannot be a runner's address, or undefined when it can. Never quotes credentials. */
export function checkRunnerUrl(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'enter the runner\'s base URL, e.g. https://dbprobe-runner.example.com (what "dbprobe-runner" printed as "listening on")';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'the URL must start with https:// or http://';
  if (url.username || url.password)
    return 'the URL holds credentials: remove them; the token goes in its own (hidden) box and into secret storage';
  if (url.search || url.hash) return 'the URL must not have a ?query or #fragment: give the base URL only';
  return undefined;
}

/**
 * A warning for a URL that works but sends the token (and any connection string) in clear text:
 * plain http to anything but this machine.
 */
export function runnerUrlWarning(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' && !isLoopback(url.hostname))
      return 'plain http: the token and any connection string you allow to be sent cross the network unencrypted. Use https unless this network is yours.';
  } catch {
    return undefined;
  }
  return undefined;
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

export function normaliseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/**
 * The environment variable a runner could hold a `secret:NAME` connection in: NAME upper-cased with
 * anything but letters and digits as "_" (`secret:neon-main` -> `NEON_MAIN`).
 */
export function suggestEnvName(secretName: string): string {
  const name = secretName
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  if (!name) return 'DATABASE_URL';
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

function parseEnvMap(raw: unknown, where: string, problems: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  if (raw === undefined || raw === null) return env;
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(`${where} must map connection names to variables, e.g. {"neon-main": "NEON_MAIN"}`);
    return env;
  }
  for (const [secret, variable] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof variable !== 'string' || !ENV_NAME.test(variable)) {
      problems.push(
        `${where}["${secret}"] must be an environment variable name like ${suggestEnvName(secret)}; that mapping is ignored`,
      );
      continue;
    }
    env[secret] = variable;
  }
  return env;
}
