import assert from 'node:assert/strict';
import { test } from 'node:test';
import { groupExportText, groupMarkdown } from '../../src/extension/export/exportGroup';
import { buildGroupViewModel } from '../../src/extension/model/groupViewModel';
import { GROUP_SCHEMA, isRunGroup, type RunGroup } from '../../src/extension/runs/runGroup';
import { summarize } from '../../src/extension/runs/runSummary';
import { isHostMessage, isPanelState } from '../../src/shared/messages';
import { Redactor } from '../../src/shared/redact';
import type { RunResult } from '../../src/shared/result';
import { fakeResult } from '../helpers/extensionRunResult';

const TARGETS = [
  { name: 'pg', driver: 'pg', transport: 'tcp' },
  { name: 'redis', driver: 'ioredis', transport: 'tcp' },
];
const LOCAL_ID = '11111111-2222-4333-8444-000000000001';
const REMOTE_ID = '11111111-2222-4333-8444-000000000002';
const GROUP_ID = '11111111-2222-4333-8444-0000000000aa';

const local = fakeResult(
  TARGETS,
  [
    { target: 'pg', kind: 'initial', p50Us: 30_000 },
    { target: 'redis', kind: 'initial', p50Us: 20_000 },
    { target: 'pg', kind: 'subsequent', p50Us: 9_000 },
    { target: 'redis', kind: 'subsequent', p50Us: 8_000 },
  ],
  { id: LOCAL_ID },
);
const remote: RunResult = {
  ...fakeResult(
    TARGETS.slice(0, 1),
    [
      { target: 'pg', kind: 'initial', p50Us: 3_000 },
      { target: 'pg', kind: 'subsequent', p50Us: 400 },
    ],
    { id: REMOTE_ID },
    { state: 'cancelled', stopReason: 'the connection to runner http://r broke' },
  ),
};
remote.environment = {
  ...remote.environment,
  location: { kind: 'runner', label: 'runner us-east-1', region: 'us-east-1' },
};
const group: RunGroup = {
  schema: GROUP_SCHEMA,
  id: GROUP_ID,
  startedAt: local.startedAt,
  places: [
    { label: 'this machine', kind: 'local', runId: LOCAL_ID, skipped: [] },
    {
      label: 'us-east-1',
      kind: 'runner',
      runner: 'use1',
      runId: REMOTE_ID,
      error: 'runner "use1" (us-east-1): the connection to runner http://r broke before the run finished',
      skipped: [{ target: 'redis', reason: 'runner "use1" cannot read secret:redis' }],
    },
    { label: 'eu', kind: 'runner', runner: 'eu', error: 'runner "eu" did not answer', skipped: [] },
  ],
};
const results = new Map([
  [LOCAL_ID, local],
  [REMOTE_ID, remote],
]);

test('across places: one column per place, labelled with the runner region from its result', () => {
  const model = buildGroupViewModel(group, results);
  assert.equal(model.groupId, GROUP_ID);
  assert.deepEqual(
    model.places.map((p) => [p.label, p.kind, p.runId ?? null, p.state ?? null]),
    [
      ['this machine', 'local', LOCAL_ID, 'completed'],
      ['us-east-1', 'runner', REMOTE_ID, 'cancelled'],
      ['eu', 'runner', null, null],
    ],
  );
  assert.equal(model.title, 'DB Probe: pg, redis from this machine vs us-east-1 vs eu');
  assert.match(model.places[1]?.detail ?? '', /^runner "use1" · Node /);
  assert.equal(model.places[0]?.detail, 'VS Code extension host');
  assert.match(model.places[1]?.error ?? '', /runner "use1".*broke/);
  assert.deepEqual(
    model.places[1]?.skipped.map((s) => s.target),
    ['redis'],
  );
});

test('across places: a row per target and kind, a cell per place, null where a place did not run it', () => {
  const model = buildGroupViewModel(group, results);
  assert.deepEqual(
    model.rows.map((r) => [r.target, r.kind, r.cells.map((c) => c?.p50Us ?? null)]),
    [
      ['pg', 'initial', [30_000, 3_000, null]],
      ['pg', 'subsequent', [9_000, 400, null]],
      ['redis', 'initial', [20_000, null, null]],
      ['redis', 'subsequent', [8_000, null, null]],
    ],
  );
  assert.equal(model.details.length, 3);
  assert.equal(model.details[1]?.runId, REMOTE_ID);
  assert.equal(model.details[2], null);
  assert.equal(isHostMessage({ type: 'showGroup', model }), true);
});

test('across places: two runners in one region keep apart by name', () => {
  const twin: RunResult = { ...remote, id: '11111111-2222-4333-8444-000000000003' };
  const model = buildGroupViewModel(
    {
      ...group,
      places: [
        { label: 'us-east-1', kind: 'runner', runner: 'a', runId: REMOTE_ID, skipped: [] },
        { label: 'us-east-1', kind: 'runner', runner: 'b', runId: twin.id, skipped: [] },
      ],
    },
    new Map([
      [REMOTE_ID, remote],
      [twin.id, twin],
    ]),
  );
  assert.deepEqual(
    model.places.map((p) => p.label),
    ['us-east-1 (a)', 'us-east-1 (b)'],
  );
});

test('group export: the places side by side, each in full with its charts, and why a place is missing', () => {
  const markdown = groupMarkdown(group, [local, remote]);
  assert.match(markdown, /^# Database latency from this machine, runner us-east-1\n/);
  assert.match(markdown, /\| Target \| Kind \| this machine \| runner us-east-1 \|/);
  assert.match(markdown, /\| pg \| initial \| 30\.000 \/ 60\.000 \/ -† \| 3\.000 \/ 6\.000 \/ -† \|/);
  // The fixture's few samples cannot carry a p99: the table says so instead of a bare figure.
  assert.match(markdown, /^† n too small: a p99 needs at least 100 successful samples/m);
  assert.match(
    markdown,
    /> \*\*us-east-1 \(runner "use1"\):\*\* runner "use1" \(us-east-1\): the connection/,
  );
  assert.match(markdown, /> \*\*us-east-1 \(runner "use1"\)\*\* skipped redis: runner "use1" cannot read/);
  assert.match(markdown, /> \*\*eu \(runner "eu"\):\*\* runner "eu" did not answer/);
  const sections = markdown.split(/^# From /m).slice(1);
  assert.equal(sections.length, 2);
  for (const section of sections) {
    const charts = section.indexOf('### p50 and p95 per target');
    assert.ok(charts > 0, 'each place has its mermaid charts');
    assert.ok(section.indexOf('```mermaid\nxychart-beta') > charts);
    assert.ok(section.lastIndexOf('\n---\n') > charts, "the charts sit above the place's footer");
  }
});

test('group export: every format passes the Redactor', () => {
  const leaky: RunGroup = {
    ...group,
    places: [{ ...group.places[0]!, error: 'postgres://u:sentinel-pw-123@h/db and token tok-sentinel-456' }],
  };
  const redactor = new Redactor()
    .addSecret('tok-sentinel-456')
    .addSecret('postgres://u:sentinel-pw-123@h/db');
  for (const format of ['markdown', 'json', 'csv'] as const) {
    const text = groupExportText(leaky, [local, remote], format, redactor);
    assert.ok(!text.includes('sentinel-pw-123') && !text.includes('tok-sentinel-456'), format);
  }
  assert.equal(JSON.parse(groupExportText(group, [local, remote], 'json', redactor)).length, 2);
});

test('group records and panel state are checked before use', () => {
  assert.equal(isRunGroup(group), true);
  assert.equal(isRunGroup({ ...group, id: '../x' }), false);
  assert.equal(isRunGroup({ ...group, schema: 'other' }), false);
  assert.equal(isPanelState({ view: 'group', groupId: GROUP_ID }), true);
  assert.equal(isPanelState({ view: 'group', groupId: 'x' }), false);
});

test('summaries say where a run ran, without repeating the region', () => {
  assert.equal(summarize(remote).location, 'runner us-east-1');
  assert.equal(summarize(remote).locationKind, 'runner');
  assert.equal(summarize(local).locationKind, 'local');
});
