import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectionChoices } from '../../src/extension/connections/connectionChoices';
import { createRegistry } from '../../src/drivers/registry';
import { DRIVER_CATALOG } from '../../src/drivers/catalog';
import { PROVIDER_PRESETS } from '../../src/extension/connections/presets';

test('presets first, grouped by provider, then every registry driver', () => {
  const registry = createRegistry();
  const choices = connectionChoices(registry);
  const drivers = choices.filter((c) => c.group === 'Drivers').map((c) => c.driver);
  assert.deepEqual(drivers, registry.ids());
  const firstDriver = choices.findIndex((c) => c.group === 'Drivers');
  assert.ok(choices.slice(0, firstDriver).every((c) => c.group !== 'Drivers'));
  assert.ok(firstDriver > 0, 'presets are offered');
  for (const c of choices) assert.ok(registry.info(c.driver), `${c.label}: driver ${c.driver} is installed`);
});

test('a preset is left out when its driver is not in the registry', () => {
  const onlyPg = createRegistry(DRIVER_CATALOG.filter((d) => d.id === 'pg'));
  const choices = connectionChoices(onlyPg);
  assert.ok(choices.every((c) => c.driver === 'pg'));
  assert.ok(
    choices.some((c) => c.group !== 'Drivers'),
    'pg presets remain',
  );
});

test('the target a choice builds uses secret:NAME and keeps the preset query and options', () => {
  const withExtras = PROVIDER_PRESETS.flatMap((p) => p.targets.map((t) => ({ p, t }))).find(
    ({ t }) => t.query !== undefined || t.options !== undefined,
  );
  const choices = connectionChoices(createRegistry());
  const plain = choices.find((c) => c.group === 'Drivers' && c.driver === 'pg');
  assert.deepEqual(plain?.target('db'), { name: 'db', driver: 'pg', connection: 'secret:db' });
  if (withExtras) {
    const choice = choices.find((c) => c.group === withExtras.p.name && c.label === withExtras.t.label);
    const spec = choice?.target('x');
    assert.equal(spec?.connection, 'secret:x');
    assert.equal(spec?.query, withExtras.t.query);
    assert.deepEqual(spec?.options, withExtras.t.options);
  }
});
