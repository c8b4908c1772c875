/**
 * Where the OTLP export goes (src/cli/otlpConfig.ts): the standard OTEL_EXPORTER_OTLP_* variables
 * as the exporter specification reads them, `--otlp` over them, signals turned off, the header
 * values and a URL's password registered as secrets, and refusals that name the variable.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CliError } from '../../src/cli/cliError';
import { otlpConfigOf } from '../../src/cli/otlpConfig';
import { Redactor } from '../../src/shared/redact';

const read = (env: NodeJS.ProcessEnv, flag?: string, redactor = new Redactor()) =>
  otlpConfigOf(flag, env, redactor);

test('off unless the flag or an endpoint variable asks', () => {
  assert.equal(read({}), undefined);
  assert.equal(read({ OTEL_EXPORTER_OTLP_HEADERS: 'a=b', OTEL_SERVICE_NAME: 'x' }), undefined);
});

test('the generic endpoint gets each signal path; a signal endpoint is used as is', () => {
  const config = read({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/otlp/v1/traces',
  });
  assert.equal(config?.metrics?.url, 'http://collector:4318/v1/metrics');
  assert.equal(config?.traces?.url, 'https://traces.example.com/otlp/v1/traces');
  assert.equal(config?.timeoutMs, 10_000);
  assert.equal(config?.resource['service.name'], 'dbprobe');
  // A base with a path keeps it.
  assert.equal(
    read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otlp.example.com/prefix/' })?.metrics?.url,
    'https://otlp.example.com/prefix/v1/metrics',
  );
});

test('--otlp wins over every endpoint variable', () => {
  const config = read(
    {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://elsewhere:4318',
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://elsewhere:4318/v1/metrics',
    },
    'http://127.0.0.1:54318',
  );
  assert.equal(config?.metrics?.url, 'http://127.0.0.1:54318/v1/metrics');
  assert.equal(config?.traces?.url, 'http://127.0.0.1:54318/v1/traces');
});

test('a signal set to none is off; OTEL_SDK_DISABLED turns the variables off, not the flag', () => {
  const noTraces = read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' });
  assert.ok(noTraces?.metrics);
  assert.equal(noTraces?.traces, undefined);
  assert.equal(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }), undefined);
  assert.ok(read({ OTEL_SDK_DISABLED: 'true' }, 'http://c:4318')?.traces);
});

test('headers: generic and per signal, percent-decoded, and every value a secret', () => {
  const redactor = new Redactor();
  const config = read(
    {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-team=key-123456,authorization=Bearer%20tok-abcdef',
      OTEL_EXPORTER_OTLP_METRICS_HEADERS: 'x-team=metrics-only-789',
    },
    undefined,
    redactor,
  );
  assert.deepEqual(config?.metrics?.headers, {
    'x-team': 'metrics-only-789',
    authorization: 'Bearer tok-abcdef',
  });
  assert.deepEqual(config?.traces?.headers, { 'x-team': 'key-123456', authorization: 'Bearer tok-abcdef' });
  const said = redactor.redact('sent key-123456 and metrics-only-789 and tok-abcdef');
  assert.equal(said, 'sent **** and **** and ****');
});

test("a URL's password is a secret, and never quoted in a refusal", () => {
  const redactor = new Redactor();
  read({}, 'https://user:s3cret-pass@otlp.example.com', redactor);
  assert.equal(redactor.redact('s3cret-pass'), '****');
  assert.throws(
    () => read({}, 'ftp://user:other-pass-42@host', new Redactor()),
    (error: Error) =>
      error instanceof CliError &&
      /http\(s\) URL/.test(error.message) &&
      !error.message.includes('other-pass-42'),
  );
});

test('refusals name what to fix', () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
  assert.throws(() => read({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }), /OTLP over HTTP.*4318/);
  assert.throws(
    () => read({ ...endpoint, OTEL_EXPORTER_OTLP_TIMEOUT: 'soon' }),
    /OTEL_EXPORTER_OTLP_TIMEOUT/,
  );
  assert.throws(() => read({ ...endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'novalue' }), /key1=value1/);
  assert.throws(() => read({}, 'not a url'), /--otlp must be an http\(s\) URL/);
  assert.equal(
    read({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })?.metrics?.url,
    'http://c:4318/v1/metrics',
  );
});

test("the protocol: http/protobuf unless told, the signal's own variable over the general one", () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
  const protocols = (env: NodeJS.ProcessEnv) => {
    const config = read({ ...endpoint, ...env });
    return [config?.metrics?.protocol, config?.traces?.protocol];
  };
  assert.deepEqual(protocols({}), ['http/protobuf', 'http/protobuf']);
  assert.deepEqual(protocols({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }), ['http/json', 'http/json']);
  assert.deepEqual(
    protocols({
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
    }),
    ['http/json', 'http/protobuf'],
  );
  assert.deepEqual(protocols({ OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/json' }), [
    'http/json',
    'http/protobuf',
  ]);
  assert.throws(
    () => read({ ...endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' }),
    /OTEL_EXPORTER_OTLP_TRACES_PROTOCOL asks for "grpc".*4318.*http\/protobuf \(the default\) or http\/json/,
  );
});

test('the resource: OTEL_SERVICE_NAME over OTEL_RESOURCE_ATTRIBUTES', () => {
  const config = read({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
    OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes,deployment.environment=ci%20eu',
    OTEL_SERVICE_NAME: 'probe-eu',
  });
  assert.deepEqual(config?.resource, { 'service.name': 'probe-eu', 'deployment.environment': 'ci eu' });
});
