/**
 * The GitHub Action's pure parts (packages/cli/action/*.mjs): workflow commands escaped as GitHub
 * reads them, the target's line in the config, the annotations and the verdict block relayed from
 * the CLI's JSON, the comment body kept under GitHub's limit, the pull request an event names, a
 * tarball's manifest. test/integration/action.test.ts runs the steps themselves.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { tempDir } from '../helpers/tempDir';

const ACTION = path.resolve(__dirname, '../../packages/cli/action');
const load = async <T>(file: string) => (await import(pathToFileURL(path.join(ACTION, file)).href)) as T;

interface Report {
  lines: string[];
  comparable: boolean;
  reason?: string;
  minEffect?: { share: number } | { us: number };
  failOnRegression?: number;
  failing?: { target: string; kind: string; text: string }[];
  changes: { target: string; kind: string; verdict: string; percentiles: Record<string, unknown>[] }[];
}
interface Verdicts {
  passed: boolean;
  verdicts: { passed: boolean; target: string; kind: string; text: string }[];
}

let workflowCommand: (command: string, props: Record<string, unknown>, message: string) => string;
let targetLine: (text: string, name: string) => number | undefined;
let gateAnnotations: (a: {
  verdicts?: Verdicts;
  report?: Report;
  config?: { file?: string; text?: string };
}) => string[];
let verdictMarkdown: (a: { code: number; verdicts?: Verdicts; report?: Report }) => string;
let commentBody: (a: { marker: string; verdicts: string; report: string; runUrl?: string }) => string;
let MAX_BODY_CHARS: number;
let pullRequestNumber: (event: unknown) => number | undefined;
let tarballManifest: (file: string) => { name: string; version: string };

before(async () => {
  ({ workflowCommand } = await load<{ workflowCommand: typeof workflowCommand }>('workflowCommands.mjs'));
  ({ targetLine } = await load<{ targetLine: typeof targetLine }>('configLines.mjs'));
  ({ gateAnnotations, verdictMarkdown } = await load<{
    gateAnnotations: typeof gateAnnotations;
    verdictMarkdown: typeof verdictMarkdown;
  }>('verdicts.mjs'));
  ({ commentBody, MAX_BODY_CHARS, pullRequestNumber } = await load<{
    commentBody: typeof commentBody;
    MAX_BODY_CHARS: number;
    pullRequestNumber: typeof pullRequestNumber;
  }>('prComment.mjs'));
  ({ tarballManifest } = await load<{ tarballManifest: typeof tarballManifest }>('tarballManifest.mjs'));
});

const CONFIG = `{
  "targets": [
    { "name": "neon (http)", "driver": "neon-http", "connection": "env:A" },
    {
      "name": "pg, direct",
      "driver": "pg",
      "connection": "env:B"
    }
  ]
}
`;

test('a workflow command escapes what would end it early: %, newlines, and : , in properties', () => {
  assert.equal(
    workflowCommand(
      'error',
      { file: 'ci/a,b.json', line: 4, title: 'x: y', col: undefined },
      '50% over\nlimit',
    ),
    '::error file=ci/a%2Cb.json,line=4,title=x%3A y::50%25 over%0Alimit',
  );
  assert.equal(workflowCommand('notice', {}, 'plain'), '::notice::plain');
});

test("an annotation points at the target's name in the config", () => {
  assert.equal(targetLine(CONFIG, 'neon (http)'), 3);
  assert.equal(targetLine(CONFIG, 'pg, direct'), 5);
  assert.equal(targetLine(CONFIG, 'absent'), undefined);
  assert.equal(targetLine(CONFIG, 'neon (http'), undefined, 'a name is matched whole, not as a pattern');
});

const failedThreshold = {
  passed: false,
  verdicts: [
    {
      passed: true,
      target: 'neon (http)',
      kind: 'initial',
      text: 'target "neon (http)" initial p95 = 3.000 ms, limit < 9.000 ms',
    },
    {
      passed: false,
      target: 'pg, direct',
      kind: 'subsequent',
      text: 'target "pg, direct" subsequent p50 = 0.400 ms, limit < 0.001 ms',
    },
  ],
};
const regressed: Report = {
  lines: ['pg, direct subsequent regressed: p50 0.26 → 2.7 ms (+938.8%).'],
  comparable: true,
  minEffect: { share: 0.05 },
  failOnRegression: 0.1,
  failing: [
    {
      target: 'pg, direct',
      kind: 'subsequent',
      text: 'target "pg, direct" subsequent p50 +2.422 ms (+938.8%)',
    },
  ],
  changes: [
    {
      target: 'pg, direct',
      kind: 'subsequent',
      verdict: 'regressed',
      percentiles: [
        {
          percentile: 50,
          baseUs: 258,
          headUs: 2680,
          diffUs: 2422,
          lowUs: 2413,
          highUs: 2432,
          share: 9.388,
          verdict: 'regressed',
        },
        {
          percentile: 99,
          baseUs: 900,
          headUs: 950,
          diffUs: 50,
          lowUs: -400,
          highUs: 600,
          share: 0.05,
          verdict: 'no change detected',
        },
      ],
    },
    { target: 'neon (http)', kind: 'initial', verdict: 'no change detected', percentiles: [] },
  ],
};

test('one ::error per failed threshold and per regression, at the target line; none for what passed', () => {
  const lines = gateAnnotations({
    verdicts: failedThreshold,
    report: regressed,
    config: { file: 'ci/dbprobe.json', text: CONFIG },
  });
  assert.deepEqual(lines, [
    '::error file=ci/dbprobe.json,line=5,title=dbprobe threshold failed::target "pg, direct" subsequent p50 = 0.400 ms, limit < 0.001 ms',
    '::error file=ci/dbprobe.json,line=5,title=dbprobe regression::target "pg, direct" subsequent regressed (established by the runs\' own intervals, at least 5.0%25 of the faster): p50 0.258 -> 2.680 ms: +2.422 ms [+2.413, +2.432] (+938.8%25); it fails the fail-on-regression +10.0%25 gate',
  ]);
  const ungated = gateAnnotations({ report: { ...regressed, failOnRegression: undefined, failing: [] } });
  assert.equal(ungated.length, 1);
  assert.match(
    ungated[0]!,
    /^::error title=dbprobe regression::.*; no fail-on-regression gate is set, so it is reported and does not fail the step$/,
  );
  const nothing = gateAnnotations({
    report: { ...regressed, comparable: false, reason: 'no target in common', changes: [] },
  });
  assert.deepEqual(nothing, [
    '::error title=dbprobe baseline not comparable::the baseline and this run have nothing comparable (no target in common): a gate that compared nothing is an error, not a pass',
  ]);
});

test('the verdict block: the outcome, each threshold verdict, the change lines and the gate, in that order', () => {
  assert.equal(
    verdictMarkdown({ code: 3, verdicts: failedThreshold, report: regressed }),
    [
      '## dbprobe: **failed: a threshold or the regression gate failed (exit 3)**',
      '',
      '- pass: target "neon (http)" initial p95 = 3.000 ms, limit < 9.000 ms',
      '- **FAIL**: target "pg, direct" subsequent p50 = 0.400 ms, limit < 0.001 ms',
      '- pg, direct subsequent regressed: p50 0.26 → 2.7 ms (+938.8%).',
      '- **Gate fail-on-regression +10.0%: FAILED**: target "pg, direct" subsequent p50 +2.422 ms (+938.8%).',
      '',
    ].join('\n'),
  );
  assert.match(
    verdictMarkdown({ code: 0 }),
    /^## dbprobe: passed\n\n- No thresholds and no baseline were given/,
  );
});

test('the comment body keeps the marker and verdicts whole and cuts the report to fit GitHub', () => {
  const body = commentBody({
    marker: '<!-- m -->',
    verdicts: '## dbprobe: passed\n',
    report: 'x'.repeat(200_000),
    runUrl: 'https://github.test/r',
  });
  assert.ok(body.length <= MAX_BODY_CHARS && MAX_BODY_CHARS < 65_536, `${body.length}`);
  assert.match(body, /^<!-- m -->\n## dbprobe: passed\n/);
  assert.match(body, /_The report is cut here; the job summary holds all of it\._\n\n<\/details>\n$/);
  assert.doesNotMatch(commentBody({ marker: 'm', verdicts: 'v', report: 'short' }), /cut here/);
});

test('the pull request an event is about', () => {
  assert.equal(pullRequestNumber({ pull_request: { number: 7 } }), 7);
  assert.equal(pullRequestNumber({ issue: { number: 8, pull_request: {} } }), 8);
  assert.equal(pullRequestNumber({ issue: { number: 9 } }), undefined, 'an issue, not a pull request');
  assert.equal(pullRequestNumber({ ref: 'refs/heads/main' }), undefined);
  assert.equal(pullRequestNumber(undefined), undefined);
});

/** A one-file ustar archive, the name split into prefix and name as tar does for long paths. */
function tarOf(prefix: string, name: string, content: string): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write(`${Buffer.byteLength(content).toString(8).padStart(11, '0')}\0`, 124);
  header.write('ustar\0', 257);
  header.write(prefix, 345);
  const body = Buffer.alloc(Math.ceil(Buffer.byteLength(content) / 512) * 512);
  body.write(content);
  return Buffer.concat([header, body, Buffer.alloc(1024)]);
}

test("a tarball's manifest is read without extracting it; anything else is named as not a package", () => {
  const dir = tempDir('action-tar');
  const good = path.join(dir, 'good.tgz');
  writeFileSync(good, gzipSync(tarOf('package', 'package.json', '{"name":"dbprobe","version":"1.2.3"}')));
  assert.deepEqual(tarballManifest(good), { name: 'dbprobe', version: '1.2.3' });
  const other = path.join(dir, 'other.tgz');
  writeFileSync(other, gzipSync(tarOf('', 'package/README.md', '# hi')));
  assert.throws(
    () => tarballManifest(other),
    /holds no package\/package\.json: it is not an npm package tarball/,
  );
  const plain = path.join(dir, 'plain.tgz');
  writeFileSync(plain, 'not gzip');
  assert.throws(() => tarballManifest(plain), /is not a gzipped npm package tarball/);
});
