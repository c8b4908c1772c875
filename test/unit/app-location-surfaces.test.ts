/**
 * The first-run question's answer is the one app location every surface reads, and every text
 * surface states the same verdict lines for it: the panel's model, the Markdown (and so the job
 * summary, which is that Markdown), the CLI's stderr and `dbprobe report RUN.json --app-rtt`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { runSummaryLines } from '../../src/cli/stderrSummary';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import {
  APP_PLACE_SETTING,
  APP_RTT_SETTING,
  panelProjectionOf,
  readAppLocation,
} from '../../src/extension/queries/appLocation';
import {
  answerSetting,
  APP_LOCATION_CHOICES,
  shouldAskAppLocation,
} from '../../src/extension/settings/appLocationChoices';
import { formatMarkdown } from '../../src/report/markdown';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import { around, projectedRun, type Side } from '../helpers/projectionResult';
import { reportOfSaved } from '../helpers/savedReport';
import { filesUnder } from '../helpers/sourceFiles';

const EXTENSION = path.join(__dirname, '..', '..', 'src', 'extension');

function side(name: string, initialUs: number, turns: number): Side {
  return {
    name,
    tcpUs: 100,
    initial: { samplesUs: around(initialUs, initialUs / 10), wire: { roundTrips: turns, tcpHandshakes: 1 } },
    subsequent: { samplesUs: around(300, 30), wire: { roundTrips: 1, tcpHandshakes: 0 } },
  };
}

/** pg-like (4 round trips a connect) fastest here; HTTP-like (1) fastest from ~1.4 ms RTT on. */
const RESULT = projectedRun([side('pg', 2_000, 4), side('edge', 6_000, 1)]);

test('asked once per workspace, and not when an app location is set already', () => {
  const none = () => false;
  assert.equal(shouldAskAppLocation(false, none), true);
  assert.equal(shouldAskAppLocation(true, none), false, '"I don\'t know" was an answer too');
  assert.equal(
    shouldAskAppLocation(false, (s) => s === APP_RTT_SETTING),
    false,
  );
  assert.equal(
    shouldAskAppLocation(false, (s) => s === APP_PLACE_SETTING),
    false,
  );
});

test('each answer writes the one app location setting, and "I don\'t know" writes none', () => {
  const written = APP_LOCATION_CHOICES.map((c) => answerSetting(c.answer, 'eu-west-1'));
  assert.deepEqual(written, [
    { setting: APP_RTT_SETTING, value: 1 },
    { setting: APP_RTT_SETTING, value: 10 },
    { setting: APP_RTT_SETTING, value: 60 },
    { setting: APP_PLACE_SETTING, value: 'eu-west-1' },
    undefined,
  ]);
  assert.equal(answerSetting({ kind: 'place' }, '  '), undefined, 'no place named: nothing written');
});

test('the answer is what every surface reads: the settings are read in one place, through readAppLocation', () => {
  // The answer "Far" lands in the settings as the question writes it, and is read back as the app location.
  const settings = new Map<string, unknown>();
  const far = answerSetting(APP_LOCATION_CHOICES[2]!.answer)!;
  settings.set(far.setting, far.value);
  const location = readAppLocation((s) => settings.get(s));
  assert.deepEqual(location, { kind: 'rtt', rttMs: 60 });
  assert.equal(panelProjectionOf(location, [1, 10]).appRttMs, 60);
  // No module of the extension reads either setting but through appLocation.ts's readAppLocation.
  const readers = filesUnder(EXTENSION).filter((f) =>
    /\.(get|inspect)(<[^>]*>)?\(\s*'(appRttMs|appLocation|dbprobe\.appRttMs|dbprobe\.appLocation)'/.test(
      readFileSync(f, 'utf8'),
    ),
  );
  assert.deepEqual(
    readers.map((f) => path.relative(EXTENSION, f)),
    [],
  );
  // Each surface takes its app location from the one reading: the panel, the export and the Runs
  // view and status bar through panelProjection(), the CodeLens and the heartbeat through appLocation().
  const surfaces: Record<string, RegExp> = {
    'panel/panelManager.ts': /panelProjection\(/,
    'commands/exportRun.ts': /panelProjection\(/,
    'runs/runVerdicts.ts': /panelProjection\(/,
    'queries/queryLensProvider.ts': /appLocation\(\)/,
    'heartbeat/heartbeat.ts': /appLocation\(\)/,
  };
  for (const [file, reads] of Object.entries(surfaces))
    assert.match(readFileSync(path.join(EXTENSION, file), 'utf8'), reads, file);
  const settingsFile = readFileSync(path.join(EXTENSION, 'settings', 'projectionSettings.ts'), 'utf8');
  assert.match(settingsFile, /readAppLocation\(/);
});

for (const appRttMs of [undefined, 30]) {
  test(`one verdict on every text surface (app RTT ${appRttMs ?? 'unset'})`, async () => {
    const judge = appRttMs !== undefined ? { appRttMs } : {};
    const lines = judgeRun(RESULT, judge).lines;
    assert.ok(lines.length >= 3, lines.join('\n'));
    if (appRttMs === undefined) assert.match(lines[0]!, /from [\d.]+ ms RTT on: set where your app runs\.$/);
    else
      assert.match(
        lines[0]!,
        new RegExp(`^New connection at ${appRttMs} ms RTT \\(projected\\): edge fastest`),
      );
    // The panel states the judgement the model carries.
    const model = buildRunViewModel(RESULT, { rttsMs: [1, 10], ...judge });
    assert.deepEqual(model.judgement?.lines, lines);
    // The Markdown (the job summary appends it) opens with the same lines, in order.
    const markdown = formatMarkdown(RESULT, judge).split('\n');
    const bullets = markdown.filter((l) => l.startsWith('- ')).slice(0, lines.length);
    assert.deepEqual(
      bullets,
      lines.map((l) => `- ${l}`),
    );
    assert.equal(markdown.indexOf(bullets[0]!), 2, 'right after the title');
    // The CLI's stderr, for the run and for the saved JSON again.
    assert.deepEqual(runSummaryLines(RESULT, judge).slice(0, lines.length), lines);
    const io = await reportOfSaved(RESULT, appRttMs);
    assert.deepEqual(io.err().split('\n').slice(0, lines.length), lines);
    assert.deepEqual(
      io
        .out()
        .split('\n')
        .filter((l) => l.startsWith('- '))
        .slice(0, lines.length),
      bullets,
    );
  });
}
