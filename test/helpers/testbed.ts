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

/** Asserts that no text contains the testbed password (raw or percent-encoded). */
export function assertNoSecret(texts: Iterable<string>, secret = sentinelPassword()): void {
  const forms = new Set([secret, encodeURIComponent(secret)]);
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
