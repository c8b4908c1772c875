/**
 * The sections below the verdict (the request-of-k crossovers, the projection, the Differences) say
 * nothing the verdict contradicts, on every surface: the panel's view model, the Markdown, the CLI's
 * stderr and `dbprobe report RUN.json`. A saved result (through JSON, as the CLI reads it) with both
 * cases a user saw: pg and an HTTP target whose p50 lines cross at 4 queries while the verdict ranks
 * them tied for a request of 5, and a Redis target beside the SQL ones, alone in its workload.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSummaryLines } from '../../src/cli/stderrSummary';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import { formatMarkdown } from '../../src/report/markdown';
import { crossover, expectedLines } from '../../src/shared/judgement/expected';
import { judgeRun, type RunJudgement } from '../../src/shared/judgement/judgeRun';
import type { RunResult } from '../../src/shared/result';
import { around, projectedRun, type Side } from '../helpers/projectionResult';
import { reportOfSaved } from '../helpers/savedReport';

/** Samples spread ±20% about their median: wide enough that a request of 5 is not separated. */
function side(name: string, initialUs: number, subsequentUs: number, roundTrips: number): Side {
  return {
    name,
    tcpUs: 100,
    initial: {
      samplesUs: around(initialUs, initialUs * 0.2),
      wire: { roundTrips, tcpHandshakes: 1 },
    },
    subsequent: {
      samplesUs: around(subsequentUs, subsequentUs * 0.2),
      wire: { roundTrips: 1, tcpHandshakes: 0 },
    },
  };
}

function savedResult(): RunResult {
  const run = projectedRun([
    side('pg', 1_700, 300, 4),
    side('edge', 1_200, 500, 1),
    side('mysql', 9_000, 2_000, 4),
    side('redis', 500, 100, 1),
  ]);
  for (const t of run.targets) t.query = t.name === 'redis' ? 'PING' : 'SELECT 1';
  run.targets.find((t) => t.name === 'edge')!.transport = 'http';
  return JSON.parse(JSON.stringify(run)) as RunResult;
}

const RESULT = savedResult();
const QUERIES = 5;

/** The verdict's groups for a request of k here, as target names. */
function requestGroups(judgement: RunJudgement): string[][] {
  const ranking = judgement.rankings.find((r) => r.question === 'request' && r.at === 'here')!;
  return ranking.groups.map((g) => g.map((e) => e.target));
}

/**
 * Every "X wins/overtakes Y from N queries" a text states, checked against the verdict's request
 * groups: a crossover at or below the verdict's k must put the winner in a faster group.
 */
function contradictions(texts: readonly string[], groups: string[][]): string[] {
  const groupOf = (t: string) => groups.findIndex((g) => g.includes(t));
  const said = /(\S+) \(\w+\) overtakes (\S+) \(\w+\)|(\S+) overtakes (\S+) from (\d+) queries/;
  return texts.flatMap((text) => {
    const from = /from (\d+) queries per request/.exec(text)?.[1];
    const m = said.exec(text);
    if (!from || !m) return [];
    const winner = m[1] ?? m[3]!;
    const loser = m[2] ?? m[4]!;
    if (Number(from) > QUERIES) return [];
    return groupOf(winner) < groupOf(loser) ? [] : [`"${text}" beside groups ${JSON.stringify(groups)}`];
  });
}

test('the fixture is the case a user saw: lines cross at 4, the verdict ties a request of 5', () => {
  const rows = expectedLines(RESULT, 10);
  const pg = rows.find((r) => r.target === 'pg')!;
  const edge = rows.find((r) => r.target === 'edge')!;
  assert.equal(crossover(pg, edge), 4, 'p50 lines cross at 4 queries');
  const judgement = judgeRun(RESULT);
  const groups = requestGroups(judgement);
  assert.ok(
    groups.some((g) => g.includes('pg') && g.includes('edge')),
    `tied at ${QUERIES}: ${JSON.stringify(groups)}`,
  );
  assert.ok(judgement.notes.some((n) => n.startsWith('redis is the only target running PING')));
});

test('one evidence: the crossovers are the judgement’s own and never contradict its request ranking', () => {
  const judgement = judgeRun(RESULT);
  const { crossovers, withinNoise } = judgement.requestCrossovers;
  const groups = requestGroups(judgement);
  assert.deepEqual(contradictions([...crossovers.map((c) => c.text), ...withinNoise], groups), []);
  for (const c of crossovers) {
    assert.ok(c.fromQueries > QUERIES || groups.findIndex((g) => g.includes(c.winner)) === 0, c.text);
    assert.match(c.text, / here \(95% CI of .* as the verdict ranks a request/);
  }
  // Named with the rule's own first count, past where the p50 lines cross.
  const pg = crossovers.find((c) => c.winner === 'pg' && c.loser === 'edge');
  assert.ok(pg, JSON.stringify(judgement.requestCrossovers));
  assert.ok(pg.fromQueries > QUERIES, pg.text);
  assert.match(pg.text, /their p50 lines cross at 4 queries per request/);
  assert.ok(
    [...crossovers.map((c) => c.text), ...withinNoise].every((t) => !t.includes('redis')),
    'Redis is set against no SQL target',
  );
});

test('the panel’s view model: the judgement’s crossovers, and Redis apart from every comparison', () => {
  for (const appRttMs of [undefined, 30]) {
    const model = buildRunViewModel(RESULT, appRttMs !== undefined ? { appRttMs } : {});
    const judgement = judgeRun(RESULT, appRttMs !== undefined ? { appRttMs } : {});
    assert.deepEqual(model.expected.crossovers, judgement.requestCrossovers.crossovers);
    assert.deepEqual(model.expected.withinNoise, judgement.requestCrossovers.withinNoise);
    assert.deepEqual(
      contradictions(
        (model.expected.crossovers ?? []).map((c) => c.text),
        requestGroups(judgement),
      ),
      [],
    );
    // Redis: apart, said once, in no comparing section.
    assert.deepEqual(model.apart?.targets, ['redis']);
    assert.match(model.apart!.line, /^Shown apart: redis \(PING\) is the only target of its workload/);
    assert.deepEqual(
      model.expected.lines.map((l) => l.target),
      ['pg', 'edge', 'mysql'],
    );
    assert.ok(model.projection!.lines.every((l) => l.target !== 'redis'));
    assert.ok(model.projection!.floors.every((f) => f.target !== 'redis'));
    const said = [...model.projection!.overtakes, ...model.projection!.withinNoise];
    assert.ok(
      said.every((t) => !t.includes('redis')),
      said.join('\n'),
    );
    const pairs = model.differences.comparisons.map((c) => `${c.a}/${c.b}`);
    assert.ok(pairs.length > 0 && pairs.every((p) => !p.includes('redis')), pairs.join(' '));
    // Its card keeps its own figures, at the app too.
    const card = model.cards.find((c) => c.target === 'redis')!;
    assert.ok(card.kinds.length === 2);
    if (appRttMs !== undefined) assert.ok(card.kinds.every((k) => k.app !== undefined));
  }
});

/** The Markdown's lines from a section's heading to the next heading. */
function sectionOf(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`## ${heading}`));
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines.slice(start, end < 0 ? undefined : end);
}

function assertMarkdownAgrees(markdown: string, judgement: RunJudgement): void {
  const expected = sectionOf(markdown, 'Expected latency');
  const projection = sectionOf(markdown, 'From where your app runs');
  const differences = sectionOf(markdown, 'Differences between targets');
  assert.ok(expected.length > 0 && projection.length > 0 && differences.length > 0);
  for (const [name, lines] of Object.entries({ expected, projection, differences }))
    assert.deepEqual(
      lines.filter((l) => /\bredis\b/.test(l)),
      [],
      `${name}: Redis is in no comparison`,
    );
  const apart = markdown.split('\n').filter((l) => l.includes('Shown apart'));
  assert.deepEqual(apart, [`_${judgement.scope.apartLine}_`], 'said once');
  // The crossover section states the judgement's crossovers, and nothing its request ranking denies.
  const claims = expected.filter((l) => l.startsWith('- '));
  assert.deepEqual(
    claims,
    [
      ...judgement.requestCrossovers.crossovers.map((c) => c.text),
      ...judgement.requestCrossovers.withinNoise,
    ].map((t) => `- ${t.endsWith('.') ? t : `${t}.`}`),
  );
  assert.deepEqual(contradictions(markdown.split('\n'), requestGroups(judgement)), []);
  // Edge leads a request of 5 at 30 ms RTT while pg's p50 is lower here: the projection may not say
  // that whatever is ahead here stays ahead at any distance, only of the kinds it states.
  assert.ok(
    !projection.includes(
      'No two targets’ lines cross at a positive RTT: the one ahead here stays ahead at any distance.',
    ),
  );
}

for (const appRttMs of [undefined, 30]) {
  test(`Markdown, the CLI's stderr and dbprobe report agree with the verdict (app RTT ${appRttMs ?? 'unset'})`, async () => {
    const judge = appRttMs !== undefined ? { appRttMs } : {};
    const judgement = judgeRun(RESULT, judge);
    const markdown = formatMarkdown(RESULT, judge);
    assertMarkdownAgrees(markdown, judgement);
    // The CLI's stderr: the verdict's lines, no crossover that contradicts them, Redis only alone.
    const stderr = runSummaryLines(RESULT, judge);
    assert.deepEqual(stderr.slice(0, judgement.lines.length), judgement.lines);
    assert.deepEqual(contradictions(stderr, requestGroups(judgement)), []);
    // dbprobe report RUN.json: the same stderr, the same Markdown.
    const io = await reportOfSaved(RESULT, appRttMs);
    assert.deepEqual(io.err().split('\n').slice(0, judgement.lines.length), judgement.lines);
    assert.equal(io.out(), markdown);
    assertMarkdownAgrees(io.out(), judgement);
  });
}
