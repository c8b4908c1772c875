/**
 * Access to the real servers started by scripts/testbed/up.sh. A missing variable fails the test with
 * a message saying how to start the testbed: an integration test never silently skips.
 */
export function testbedEnv(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(
      `${name} is not set: start the real servers with \`eval "$(bash scripts/testbed/up.sh)"\` or run \`npm test\``,
    );
  }
  return value;
}

/** The generated testbed password: tests scan every output for it. */
export function sentinelPassword(): string {
  return testbedEnv('DBPROBE_TEST_PASSWORD');
}

/**
 * The forms a secret can leak in: raw, percent-encoded, and base64 of the secret and of `user:secret`
 * (what an HTTP Basic header or a driver's SASL exchange would carry).
 */
export function secretForms(secret: string, users: readonly string[] = ['', 'default']): string[] {
  const base64 = (text: string) => Buffer.from(text).toString('base64');
  // A base64 string inside longer base64 shifts with its offset: strip the padding, match the core.
  const core = (text: string) => base64(text).replace(/=+$/, '').slice(0, -1);
  return [
    ...new Set([
      secret,
      encodeURIComponent(secret),
      core(secret),
      ...users.map((user) => core(`${user}:${secret}`)),
    ]),
  ].filter((form) => form.length >= 6);
}

/** Asserts that no text contains the secret (the testbed password by default) in any of its forms. */
export function assertNoSecret(
  texts: Iterable<string>,
  secret = sentinelPassword(),
  users: readonly string[] = ['', 'default', 'dbprobe', 'apikey'],
): void {
  const forms = secretForms(secret, users);
  for (const text of texts) {
    for (const form of forms) {
      if (text.includes(form))
        throw new Error(
          `secret leaked into output: ...${text.slice(Math.max(0, text.indexOf(form) - 60), text.indexOf(form))}<SECRET>...`,
        );
    }
  }
}

/** The same URL with another password, port or path: for wrong-credential and refused-port tests. */
export function withUrl(url: string, change: (u: URL) => void): string {
  const parsed = new URL(url);
  change(parsed);
  return parsed.toString();
}

/**
 * The testbed's cold PostgreSQL (pgcold) as a config target suspended through the Neon API
 * stand-in, and the environment its `env:` references read.
 */
export function pgColdTarget(name: string): {
  target: Record<string, unknown>;
  env: Record<string, string>;
} {
  return {
    target: {
      name,
      driver: 'pg',
      connection: 'env:COLD_PG_URL',
      cold: {
        mode: 'neon-api',
        neon: {
          projectId: testbedEnv('DBPROBE_TEST_NEON_PROJECT_ID'),
          endpointId: testbedEnv('DBPROBE_TEST_NEON_ENDPOINT_ID'),
          apiUrl: testbedEnv('DBPROBE_TEST_NEON_API_URL'),
          apiKey: 'env:NEON_API_KEY',
        },
      },
    },
    env: {
      COLD_PG_URL: testbedEnv('DBPROBE_TEST_PG_COLD_URL'),
      NEON_API_KEY: testbedEnv('DBPROBE_TEST_NEON_API_KEY'),
    },
  };
}
