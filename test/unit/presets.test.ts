/** Provider presets: every target names a real driver, uses a connection string that driver accepts, and keeps TLS on. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkConnectionString } from '../../src/core/slot';
import { DRIVER_CATALOG } from '../../src/drivers/catalog';
import { findPreset, presetTargetSpec, PROVIDER_PRESETS } from '../../src/extension/connections/presets';

const everyTarget = PROVIDER_PRESETS.flatMap((preset) =>
  preset.targets.map((target) => ({ preset, target })),
);

/** Whether a connection string keeps TLS on, by the rules of the driver that will read it. */
function tlsOn(driver: string, connection: string): boolean {
  const url = new URL(connection);
  const sslmode = url.searchParams.get('sslmode');
  switch (url.protocol) {
    case 'https:':
    case 'wss:':
    case 'rediss:':
    case 'mongodb+srv:':
      return url.searchParams.get('tls') !== 'false' && url.searchParams.get('ssl') !== 'false';
    case 'libsql:':
      return url.searchParams.get('tls') !== '0';
    case 'postgres:':
    case 'postgresql:':
      return sslmode === 'require' || sslmode === 'verify-ca' || sslmode === 'verify-full';
    case 'mysql:': {
      // @planetscale/database always posts to https:; mysql2 needs an ssl object that verifies.
      if (driver === 'planetscale') return true;
      const ssl = url.searchParams.get('ssl');
      return (
        ssl !== null && (JSON.parse(ssl) as { rejectUnauthorized?: boolean }).rejectUnauthorized === true
      );
    }
    default:
      return false;
  }
}

/** Any option, at any depth, that would turn TLS or certificate checks off. */
function weakensTls(value: unknown, key = ''): boolean {
  if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => weakensTls(v, k));
  if (/^(rejectUnauthorized|useSecureWebSocket|ssl|tls|secure)$/i.test(key) && value === false) return true;
  return typeof value === 'string' && /sslmode=(disable|allow|prefer)|tls=0|^http:|^ws:/.test(value);
}

describe('provider presets', () => {
  test('cover each provider with the drivers it serves', () => {
    const drivers = (id: string) =>
      findPreset(id)
        ?.targets.map((t) => t.driver)
        .sort();
    assert.deepEqual(drivers('neon'), ['neon-http', 'neon-ws', 'pg', 'pg']);
    assert.deepEqual(drivers('vercel-postgres'), ['neon-http', 'neon-ws']);
    assert.deepEqual(drivers('supabase'), ['http', 'pg']);
    assert.deepEqual(drivers('cockroachdb'), ['pg']);
    assert.deepEqual(drivers('planetscale'), ['mysql2', 'planetscale']);
    assert.deepEqual(drivers('turso'), ['libsql', 'libsql']);
    assert.deepEqual(drivers('mongodb-atlas'), ['mongodb']);
    assert.deepEqual(drivers('upstash-redis'), ['ioredis', 'upstash']);
    assert.deepEqual(drivers('vercel-kv'), ['upstash']);
  });

  test('ids are unique, help links are https', () => {
    assert.equal(new Set(PROVIDER_PRESETS.map((p) => p.id)).size, PROVIDER_PRESETS.length);
    for (const preset of PROVIDER_PRESETS) {
      assert.equal(new Set(preset.targets.map((t) => t.id)).size, preset.targets.length, preset.id);
      assert.match(preset.helpUrl, /^https:\/\//, preset.id);
      assert.ok(preset.targets.length > 0, preset.id);
    }
  });

  for (const { preset, target } of everyTarget) {
    test(`${preset.id}/${target.id}: a known driver that accepts the example connection string`, () => {
      const info = DRIVER_CATALOG.find((d) => d.id === target.driver);
      assert.ok(info, `driver ${target.driver} is in the catalog`);
      assert.equal(checkConnectionString(target.connectionExample, info), undefined);
      assert.ok(target.connectionHint.length > 0);
    });

    test(`${preset.id}/${target.id}: TLS on, certificate checks untouched, placeholders only`, () => {
      assert.ok(tlsOn(target.driver, target.connectionExample), target.connectionExample);
      assert.equal(weakensTls(target.options ?? {}), false, JSON.stringify(target.options));
      // A password or token in an example is a placeholder in capitals, never something that looks real.
      const url = new URL(target.connectionExample);
      for (const secret of [
        url.password,
        ...[...url.searchParams].filter(([k]) => /token|key/i.test(k)).map(([, v]) => v),
      ]) {
        if (secret)
          assert.match(decodeURIComponent(secret), /^[A-Z_]+$/, `placeholder in ${target.connectionExample}`);
      }
    });
  }

  test('the TLS check itself rejects weak connection strings', () => {
    assert.equal(tlsOn('pg', 'postgres://u:P@h/db?sslmode=disable'), false);
    assert.equal(tlsOn('pg', 'postgres://u:P@h/db'), false);
    assert.equal(tlsOn('upstash', 'http://default:T@h'), false);
    assert.equal(tlsOn('libsql', 'libsql://h?tls=0'), false);
    assert.equal(tlsOn('mysql2', 'mysql://u:P@h/db?ssl={"rejectUnauthorized":false}'), false);
    assert.equal(weakensTls({ useSecureWebSocket: false }), true);
    assert.equal(weakensTls({ ssl: { rejectUnauthorized: false } }), true);
  });

  test('presetTargetSpec builds a target with the user name and reference, and copies the options', () => {
    const spec = presetTargetSpec('supabase', 'rest', {
      name: 'supabase rest',
      connection: 'secret:supabase',
    });
    assert.deepEqual(spec, {
      name: 'supabase rest',
      driver: 'http',
      connection: 'secret:supabase',
      query: 'GET /TABLE?select=*&limit=1',
      options: { headers: { Authorization: 'Bearer {secret}' } },
    });
    (spec.options!.headers as Record<string, string>).Authorization = 'changed';
    assert.deepEqual(findPreset('supabase')?.targets[1]?.options, {
      headers: { Authorization: 'Bearer {secret}' },
    });
    assert.deepEqual(presetTargetSpec('neon', 'http', { name: 'n', connection: 'env:NEON' }), {
      name: 'n',
      driver: 'neon-http',
      connection: 'env:NEON',
    });
    assert.throws(
      () => presetTargetSpec('neon', 'nope', { name: 'n', connection: 'env:X' }),
      /no preset target/,
    );
  });
});
