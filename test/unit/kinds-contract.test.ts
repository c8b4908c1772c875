/**
 * Every probe kind keeps one contract (src/core/kinds/kind.ts) in a file of its own, and the engine
 * runs a plan only by looping over its kinds through that table: no kind is built apart or branched
 * off, and no entry is a stub.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { KINDS } from '../../src/core/kinds/allKinds';
import type { Kind } from '../../src/core/kinds/kind';
import { PROBE_KINDS, type ProbeKind } from '../../src/shared/plan';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

const KINDS_DIR = path.resolve(__dirname, '..', '..', 'src', 'core', 'kinds');
/** The contract and the table; every other file is one kind. */
const NOT_A_KIND = new Set(['kind.ts', 'allKinds.ts']);

test('src/core/kinds/ holds one file per probe kind, each exporting the kind the table names', async () => {
  const files = readdirSync(KINDS_DIR).filter((f) => !NOT_A_KIND.has(f));
  assert.deepEqual(
    files.map((f) => f.replace(/Kind\.ts$/, '')).sort(),
    [...PROBE_KINDS].sort(),
    'one <kind>Kind.ts per probe kind, nothing else',
  );
  for (const kind of PROBE_KINDS) {
    const module = (await import(path.join(KINDS_DIR, `${kind}Kind.ts`))) as Record<string, unknown>;
    assert.equal(module[`${kind}Kind`], KINDS[kind], `${kind}Kind.ts exports the table's ${kind}`);
    assert.equal(KINDS[kind].name, kind);
  }
});

test('runPlan runs each kind of the plan through the table, in the plan order, with a state per target', async () => {
  const calls: { kind: ProbeKind; targets: string[]; states: string[] }[] = [];
  const originals = new Map<ProbeKind, Kind['run']>();
  for (const kind of PROBE_KINDS) {
    const entry = KINDS[kind] as { run: Kind['run'] };
    const run = entry.run;
    originals.set(kind, run);
    entry.run = (slots, states, context) => {
      calls.push({
        kind,
        targets: slots.map((s) => s.spec.name),
        states: states.map((s) => `${s.kind}:${s.target}`),
      });
      return run(slots, states, context);
    };
  }
  try {
    const clock = new FakeClock();
    const stats = new FakeDriverStats();
    const registry = fakeRegistry([
      fakeDriver('a', clock, { queryUs: [100] }, stats),
      fakeDriver('b', clock, { queryUs: [200] }, stats),
    ]);
    const result = await runPlan(
      plan([target('a'), target('b')], { kinds: ['subsequent', 'initial'], iterations: 3 }),
      { registry, resolveConnection: async () => 'fake://x', tool: TOOL, clock, watchClient: false },
    );
    assert.deepEqual(calls, [
      { kind: 'subsequent', targets: ['a', 'b'], states: ['subsequent:a', 'subsequent:b'] },
      { kind: 'initial', targets: ['a', 'b'], states: ['initial:a', 'initial:b'] },
    ]);
    assert.deepEqual(
      result.measurements.map((m) => [m.kind, m.target, m.stats.count, m.reused]),
      [
        ['subsequent', 'a', 3, KINDS.subsequent.reused],
        ['subsequent', 'b', 3, KINDS.subsequent.reused],
        ['initial', 'a', 3, KINDS.initial.reused],
        ['initial', 'b', 3, KINDS.initial.reused],
      ],
      'each kind measured every target and the result says what it reused',
    );
  } finally {
    for (const [kind, run] of originals) (KINDS[kind] as { run: Kind['run'] }).run = run;
  }
});
