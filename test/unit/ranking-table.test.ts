/** The verdict's ranking table (src/shared/judgement/rankingTable.ts): the judgement's places and figures, per question. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import { cellText, rankingTables } from '../../src/shared/judgement/rankingTable';
import { formatMarkdown } from '../../src/report/markdown';
import { around, projectedRun, type Side } from '../helpers/projectionResult';

function side(name: string, initialUs: number, turns: number, subsequentUs = 300): Side {
  return {
    name,
    tcpUs: 100,
    initial: { samplesUs: around(initialUs, initialUs / 10), wire: { roundTrips: turns, tcpHandshakes: 1 } },
    subsequent: {
      samplesUs: around(subsequentUs, subsequentUs / 10),
      wire: { roundTrips: 1, tcpHandshakes: 0 },
    },
  };
}

const RUN = projectedRun([side('pg', 2_000, 4), side('edge', 6_000, 1), side('twin', 2_050, 4)]);

test('at the app RTT: rows in the first question’s order there, each cell its place, ≈ figure and here', () => {
  const judgement = judgeRun(RUN, { appRttMs: 30 });
  const [table] = rankingTables(judgement);
  assert.ok(table);
  assert.equal(table.at, 'app');
  assert.equal(table.rttMs, 30);
  assert.deepEqual(table.columns, ['New connection', 'Warm query', 'Request of 5 queries']);
  const app = judgement.rankings.find((r) => r.question === 'new connection' && r.at === 'app')!;
  assert.deepEqual(
    table.rows.map((r) => r.target),
    app.groups.flat().map((e) => e.target),
  );
  assert.equal(table.rows[0]!.target, 'edge');
  assert.deepEqual(table.rows[0]!.cells[0], {
    place: 'fastest',
    tied: false,
    figure: `≈ ${(app.groups[0]![0]!.p50Us / 1000).toFixed(1)} ms`,
    here: '6.0 ms here',
  });
  // pg and its twin: one tie group behind, marked tied.
  for (const row of table.rows.slice(1)) {
    assert.equal(row.cells[0]!.place, 'tied behind', row.target);
    assert.equal(row.cells[0]!.tied, true);
  }
  // Every figure keeps its unit.
  for (const row of table.rows) for (const cell of row.cells) assert.match(cellText(cell), /\d ms/);
});

test('with no app location: the places here, and the Markdown prints the same cells', () => {
  const judgement = judgeRun(RUN);
  const [table] = rankingTables(judgement);
  assert.equal(table?.at, 'here');
  assert.equal(table?.rows[0]?.cells[0]?.figure, '2.0 ms here');
  const markdown = formatMarkdown(RUN);
  for (const row of table!.rows)
    assert.ok(
      markdown.includes(`| ${row.target} | ${row.cells.map(cellText).join(' | ')} |`),
      `${row.target}'s row in the Markdown`,
    );
});
