/**
 * The secrets a process can see in its environment, for its Redactor. What another program says
 * (a suspend command inherits this environment; a server can echo a header back) may quote any of
 * them, so each run masks, beside the connection strings it resolved:
 *
 * - the value of every variable the run names: connection references (`env:VAR`), the Neon API key
 *   reference (`cold.neon.apiKey`, NEON_API_KEY by default), the runner token (DBPROBE_TOKEN);
 * - the value of every variable whose name says it holds a secret (a part KEY, TOKEN, SECRET,
 *   PASSWORD, PASSWD, PASS, PWD, CREDENTIAL(S), or a name ending in one of them), unless the name says
 *   it holds where a secret lives (ending _FILE, _PATH, _DIR) or the value is plainly no secret (a
 *   path, a number, a word like true/false, fewer than 8 characters: masking those would blank
 *   ordinary words in every report);
 * - the value (and its password) of every variable holding a URL with credentials (DATABASE_URL,
 *   REDIS_URL...), whatever its name.
 *
 * Pure: the caller passes the environment (the CLI's, the runner's, the extension host's).
 */
import type { PlanSpec } from './plan';

/** Variables read at most: an environment is a few hundred; a larger one is not read past this. */
const MAX_VARIABLES = 2_000;
/** Longer values are not secrets of ours (a connection string is at most 16 KiB). */
const MAX_VALUE_CHARS = 16_384;
const MIN_GUESSED_CHARS = 8;

const SECRET_NAME_PARTS = new Set([
  'KEY',
  'APIKEY',
  'TOKEN',
  'SECRET',
  'PASSWORD',
  'PASSWD',
  'PASS',
  'PWD',
  'CREDENTIAL',
  'CREDENTIALS',
]);
const SECRET_NAME_ENDINGS = /(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD)$/;
/** Names of variables that say where a secret is, not what it is; and the shell's own PWD/OLDPWD. */
const NOT_A_SECRET_NAME = /(?:_FILE|_PATH|_DIR|_SOCK)$|^(?:PWD|OLDPWD)$/;
const NOT_A_SECRET_VALUE = /^(?:true|false|yes|no|on|off|none|null|undefined|\d+(?:\.\d+)?)$/i;
const URL_WITH_CREDENTIALS = /^[a-z][a-z0-9+.-]{0,31}:\/\/[^\s/@]+@/i;

/** The variables a plan names: its connection references and its Neon API key references. */
export function envNamesOfPlan(plan: Pick<PlanSpec, 'targets'>): string[] {
  const names = new Set<string>(['DBPROBE_TOKEN']);
  for (const target of plan.targets) {
    const connection = /^env:(.+)$/.exec(target.connection)?.[1];
    if (connection) names.add(connection);
    if (target.cold?.mode === 'neon-api') {
      const key = /^env:(.+)$/.exec(target.cold.neon?.apiKey ?? 'env:NEON_API_KEY')?.[1];
      if (key) names.add(key);
    }
  }
  return [...names];
}

/** Every secret value `env` holds by the rules above; `named` are variables the run refers to. */
export function secretsInEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  named: Iterable<string> = [],
): string[] {
  const secrets = new Set<string>();
  for (const name of named) {
    const raw = env[name];
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (value && value.length <= MAX_VALUE_CHARS) secrets.add(value);
  }
  let read = 0;
  for (const [name, raw] of Object.entries(env)) {
    if (++read > MAX_VARIABLES) break;
    // A platform's environment may hold bindings that are not strings (a Worker's KV namespace).
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (!value || value.length > MAX_VALUE_CHARS) continue;
    if (URL_WITH_CREDENTIALS.test(value) || (secretName(name) && plausibleSecret(value))) secrets.add(value);
  }
  return [...secrets];
}

function secretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (NOT_A_SECRET_NAME.test(upper)) return false;
  return (
    upper.split(/[^A-Z0-9]+/).some((part) => SECRET_NAME_PARTS.has(part)) || SECRET_NAME_ENDINGS.test(upper)
  );
}

function plausibleSecret(value: string): boolean {
  if (value.length < MIN_GUESSED_CHARS || NOT_A_SECRET_VALUE.test(value)) return false;
  // A path names where something is (a key file), and masking it would blank paths in messages.
  return !/^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/.test(value);
}
