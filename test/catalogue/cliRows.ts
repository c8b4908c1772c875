/**
 * The catalogue's `dbprobe run` flag, output and verdict rows (the bad-inputs catalogue, docs/bad-inputs.md): each is one wrong input,
 * its exit code (never 0) and the line it answers. Run by test/cli/bad-inputs-table.test.ts against
 * an embedded libSQL file (a few against the testbed's PostgreSQL, marked in `setup`). Pure data.
 */
import type { BadInput } from './badInputs';

type Row = Omit<BadInput, 'area'>;

const usage = (
  id: string,
  input: string,
  line: RegExp,
  todo: string,
  setup = 'one libSQL file target',
): Row => ({
  id: `cli.${id}`,
  input,
  setup,
  exit: 2,
  line,
  todo,
});

const FLAGS_IGNORED: Row[] = [
  usage(
    'schedule-with-sweep',
    '`--kinds schedule --sweep 1,4`',
    /^dbprobe: --sweep 1,4 applies to the load kind, but --kinds .* is schedule, so it would be ignored/,
    'Add load to --kinds, or drop --sweep.',
  ),
  usage(
    'concurrency-with-sweep',
    '`--kinds load --concurrency 8 --sweep 1,4`',
    /^dbprobe: --concurrency 8 and --sweep 1,4 both set the load levels \(connections\)/,
    'Give --sweep alone for several levels, or --concurrency alone for one.',
  ),
  usage(
    'concurrency-without-load',
    '`--kinds initial --concurrency 4`',
    /^dbprobe: --concurrency 4 applies to the load kind, but .* is initial/,
    'Add load to --kinds, or drop --concurrency.',
  ),
  usage(
    'rate-without-load',
    '`--kinds initial --rate 5`',
    /^dbprobe: --rate 5 applies to the load or schedule kind/,
    'Add load or schedule to --kinds, or drop --rate.',
  ),
  usage(
    'duration-without-load',
    '`--kinds subsequent --duration 1`',
    /^dbprobe: --duration 1 applies to the load or schedule kind/,
    'Add load or schedule to --kinds, or drop --duration.',
  ),
  usage(
    'queries-without-schedule',
    '`--kinds load --queries 3`',
    /^dbprobe: --queries 3 applies to the schedule kind/,
    'Add schedule to --kinds, or drop --queries.',
  ),
  usage(
    'pooled-without-schedule',
    '`--kinds load --pooled`',
    /^dbprobe: --pooled applies to the schedule kind/,
    'Add schedule to --kinds, or drop --pooled.',
  ),
  usage(
    'max-error-rate-without-load',
    '`--kinds schedule --max-error-rate 1%`',
    /^dbprobe: --max-error-rate 1% applies to the load kind/,
    'Add load to --kinds, or drop --max-error-rate.',
  ),
  usage(
    'max-latency-without-load',
    '`--kinds initial --max-latency 50ms`',
    /^dbprobe: --max-latency 50ms applies to the load kind/,
    'Add load to --kinds, or drop --max-latency.',
  ),
  usage(
    'cold-samples-without-cold',
    '`--kinds initial --cold-samples 3`',
    /^dbprobe: --cold-samples 3 applies to the cold kind/,
    'Add cold to --kinds, or drop --cold-samples.',
  ),
  usage(
    'iterations-with-load-only',
    '`--kinds load --iterations 5` (load runs for a duration)',
    /^dbprobe: --iterations 5 applies to the initial or subsequent kind/,
    'Use --duration for load and schedule; --iterations counts initial and subsequent samples.',
  ),
  usage(
    'warmup-with-schedule-only',
    '`--kinds schedule --warmup 2`',
    /^dbprobe: --warmup 2 applies to the initial or subsequent kind/,
    'Drop --warmup, or add initial or subsequent to --kinds.',
  ),
  usage(
    'here-without-runner',
    '`--here` without `--runner`',
    /^dbprobe: --here runs this machine beside the --runner URLs, and no --runner was given/,
    'Add --runner URL, or drop --here.',
  ),
  usage(
    'empty-kinds',
    "`--kinds ''`",
    /^dbprobe: --kinds is empty; give one or more names .*initial, subsequent, cold, schedule, load/,
    'Name the kinds, or leave --kinds out to use the config.',
  ),
  usage(
    'empty-targets',
    "`--targets ''`",
    /^dbprobe: --targets is empty; give one or more names/,
    'Name the targets, or leave --targets out to probe all of them.',
  ),
  usage(
    'fan-out-one-place',
    '`--fan-out --kinds load` with no runner',
    /^dbprobe: --fan-out needs at least two places: add --runner URL/,
    'Add --runner URL (several allowed) and --here for this machine.',
  ),
  usage(
    'fan-out-initial',
    '`--fan-out` with the initial kind',
    /^dbprobe: --fan-out splits only the load and schedule kinds, and this run has initial/,
    'Run initial and subsequent without --fan-out.',
  ),
];

const OUTPUTS: Row[] = [
  usage(
    'summary-missing-folder',
    '`--summary /proc/nope/x.md` (a folder that does not exist)',
    /^dbprobe: --summary \/proc\/nope\/x\.md: the folder \/proc\/nope does not exist; .*nothing was measured yet/,
    'Create the folder, or pass another --summary path; it is checked before the run.',
  ),
  usage(
    'summary-is-folder',
    '`--summary` naming a folder',
    /^dbprobe: --summary \S+ is a folder; give a file path/,
    'Give a file path.',
  ),
  usage(
    'step-summary-missing-folder',
    'GITHUB_STEP_SUMMARY naming a folder that does not exist',
    /^dbprobe: GITHUB_STEP_SUMMARY \/proc\/nope\/step\.md: the folder \/proc\/nope does not exist/,
    'Fix GITHUB_STEP_SUMMARY (GitHub Actions sets it), or unset it.',
  ),
  usage(
    'out-missing-folder',
    '`--out /proc/nope/x.md`',
    /^dbprobe: --out \/proc\/nope\/x\.md: the folder \/proc\/nope does not exist; .*nothing was measured yet/,
    'Create the folder, or pass another --out path.',
  ),
  usage(
    'out-is-folder',
    '`--out` naming a folder',
    /^dbprobe: --out \S+ is a folder; give a file path/,
    'Give a file path.',
  ),
];

const BOUNDS: Row[] = [
  usage(
    'unknown-kind',
    '`--kinds bogus`',
    /^dbprobe: --kinds: "bogus" is not a kind; must be a non-empty list of: initial, subsequent, cold, schedule, load/,
    'Use the kinds listed.',
  ),
  usage(
    'unknown-target',
    '`--targets nope`',
    /^dbprobe: --targets names "nope" not in the config; available: lite/,
    'Use a target name of dbprobe.json.',
  ),
  usage(
    'unknown-format',
    '`--format xml`',
    /^dbprobe: --format must be one of markdown, json, csv \(got "xml"\)/,
    'Use markdown, json or csv.',
  ),
  usage(
    'unknown-order',
    '`--order random`',
    /^dbprobe: --order: must be one of: interleaved, sequential/,
    'Use interleaved or sequential.',
  ),
  usage(
    'iterations-not-number',
    '`--iterations abc`',
    /^dbprobe: --iterations must be a whole number from 1 to 1000000 \(got "abc"\)/,
    'Give 1 to 1,000,000 iterations.',
  ),
  usage(
    'warmup-over',
    '`--warmup 99999999`',
    /^dbprobe: --warmup: must be a whole number from 0 to 100000/,
    'Give 0 to 100,000 warm-up samples.',
  ),
  usage(
    'cold-samples-zero',
    '`--kinds cold --cold-samples 0`',
    /^dbprobe: --cold-samples \(cold\.samples\): must be a whole number from 1 to 10000 \(got 0\)/,
    'Give 1 to 10,000 cold samples.',
    'one libSQL file target with a cold command',
  ),
  usage(
    'cold-samples-not-number',
    '`--kinds cold --cold-samples few`',
    /^dbprobe: --cold-samples must be a whole number from 1 to 10000 \(got "few"\)/,
    'Give 1 to 10,000 cold samples.',
    'one libSQL file target with a cold command',
  ),
  usage(
    'concurrency-zero',
    '`--kinds load --concurrency 0`',
    /^dbprobe: --concurrency must be a whole number from 1 to 1000 \(got "0"\)/,
    'Give 1 to 1,000 connections.',
  ),
  usage(
    'concurrency-over',
    '`--kinds load --concurrency 5000`',
    /^dbprobe: --concurrency \(load\.levels\): must be a list of 1 to 50 connection counts from 1 to 1000/,
    'Give 1 to 1,000 connections.',
  ),
  usage(
    'rate-zero',
    '`--kinds schedule --rate 0`',
    /^dbprobe: --rate must be a number above 0, up to 100000 per second \(got "0"\)/,
    'Give a rate above 0, up to 100,000 per second.',
  ),
  usage(
    'rate-over',
    '`--kinds schedule --rate 1000000`',
    /^--rate \(schedule\.rate\): must be a number above 0 up to 100000 \(got 1000000\)/,
    'Give a rate up to 100,000 per second.',
  ),
  usage(
    'duration-not-number',
    '`--kinds load --duration soon`',
    /^dbprobe: --duration must be a number above 0, up to 3600 s \(got "soon"\)/,
    'Give seconds, above 0 and up to 3,600.',
  ),
  usage(
    'duration-over',
    '`--kinds schedule --duration 100000`',
    /^--duration \(schedule\.durationS\): must be a number above 0 up to 3600/,
    'Give seconds up to 3,600.',
  ),
  usage(
    'queries-over',
    '`--kinds schedule --queries 1000`',
    /^dbprobe: --queries \(schedule\.queries\): must be a whole number from 1 to 100 \(got 1000\)/,
    'Give 1 to 100 queries per request.',
  ),
  usage(
    'queries-zero',
    '`--kinds schedule --queries 0`',
    /^dbprobe: --queries must be a whole number from 1 to 100 \(got "0"\)/,
    'Give 1 to 100 queries per request.',
  ),
  usage(
    'sweep-not-list',
    '`--kinds load --sweep 1,two`',
    /^dbprobe: --sweep must be a list like 1,2,4,8 or a doubling range like 1\.\.64 \(got "1,two"\)/,
    'Give a list like 1,2,4,8 or a range like 1..64.',
  ),
  usage(
    'sweep-down',
    '`--kinds load --sweep 8..1`',
    /^dbprobe: --sweep 8\.\.1: the range must go up from above 0/,
    'Give the range upwards: 1..8.',
  ),
  usage(
    'max-error-rate-over',
    '`--kinds load --max-error-rate 150%`',
    /^dbprobe: --max-error-rate 150% is above 100%: a level cannot fail more queries than it sends, so this limit could never trip/,
    'Give a share from 0% to 100%.',
  ),
  usage(
    'max-latency-not-time',
    '`--kinds load --max-latency fast`',
    /^dbprobe: --max-latency must be a time like 50ms, 0\.2s or p95:50ms \(got "fast"\)/,
    'Give a time like 50ms.',
  ),
  usage(
    'unknown-flag',
    '`--bogus`',
    /^dbprobe: Unknown option '--bogus'/,
    'See dbprobe run --help for the flags.',
  ),
  usage(
    'positional',
    '`dbprobe run extra`',
    /^dbprobe: Unexpected argument 'extra'/,
    'Flags only: see dbprobe run --help.',
  ),
  usage(
    'runner-not-http',
    '`--runner ftp://x`',
    /^dbprobe: --runner must be an http\(s\) URL, the address `dbprobe runner` prints when it starts \(got "ftp:\/\/x"\)/,
    'Give the runner as http:// or https://.',
    'DBPROBE_TOKEN set',
  ),
  usage(
    'threshold-errors-over',
    "`--threshold 'lite:initial:errors<150%'`",
    /^dbprobe: .*an error rate is at most 100%, so errors<150% can never fail/,
    'Give an error share that can fail, such as errors<1%.',
  ),
  usage(
    'runner-not-http-no-token',
    '`--runner ftp://x` with no DBPROBE_TOKEN',
    /^dbprobe: --runner must be an http\(s\) URL, the address `dbprobe runner` prints when it starts \(got "ftp:\/\/x"\)/,
    'Give the runner as http:// or https://; the token is asked for after the URL.',
  ),
  usage(
    'demo-iterations-over',
    '`dbprobe demo -n 99999999`',
    /^dbprobe: --iterations must be a whole number from 1 to 1000000 \(got "99999999"\)/,
    'Give 1 to 1,000,000 iterations.',
    'the demo command',
  ),
  usage(
    'demo-format',
    '`dbprobe demo --format xml`',
    /^dbprobe: --format must be one of markdown, json, csv \(got "xml"\)/,
    'Use markdown, json or csv.',
    'the demo command',
  ),
];

const form = /KIND: initial, subsequent, cold, schedule, load or \*/;
const threshold = (id: string, value: string, why: string, todo: string, kinds = 'initial'): Row =>
  usage(
    `threshold-${id}`,
    `\`--threshold '${value}'\``,
    new RegExp(`^dbprobe: --threshold "${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"${why}`),
    todo,
    `one libSQL file target, --kinds ${kinds}`,
  );

const THRESHOLDS: Row[] = [
  threshold(
    'errors-below-zero',
    '*:*:errors<0',
    ': "errors<0" can never be met; use errors<=0',
    'Write errors<=0 (no error at all) or a limit above 0.',
  ),
  threshold(
    'percent-below-zero',
    '*:*:errors<0%',
    ': "errors<0" can never be met',
    'Write errors<=0% or a limit above 0%.',
  ),
  threshold('p99-below-zero', '*:*:p99<0ms', ': "p99<0" can never be met', 'Give a latency limit above 0.'),
  threshold(
    'unknown-kind',
    '*:bogus:p99<5ms',
    `: unknown kind "bogus"; the form is .*${form.source}`,
    'Use a kind the form lists, or *.',
  ),
  threshold(
    'unknown-stat',
    '*:*:p42<5ms',
    ': unknown statistic "p42"',
    'Use p50, p90, p95, p99, p999, max, mean or errors.',
  ),
  threshold('no-unit', '*:*:p99<5', ': p99 needs a time unit: ms, us or s', 'Add ms, us or s to the limit.'),
  threshold(
    'errors-as-time',
    '*:*:errors<5ms',
    ': errors take a limit in % or a count, not a time',
    'Give errors a % or a count.',
  ),
  threshold(
    'two-parts',
    'initial:p99<5ms',
    ': expected three parts separated by ":"',
    'Write TARGET:KIND:STAT<LIMIT, e.g. *:initial:p99<5ms.',
  ),
  threshold(
    'empty-target',
    ':initial:p99<5ms',
    ': the target is empty \\(use \\* for any target\\)',
    'Name a target or use *.',
  ),
  threshold(
    'bad-condition',
    '*:*:p99>5ms',
    ': cannot read the condition "p99>5ms"',
    'Use < or <= with a limit.',
  ),
  usage(
    'threshold-kind-not-run',
    "`--threshold '*:load:p99<5ms'` on a run without load",
    /^dbprobe: --threshold "\*:load:p99<5ms" names kind "load", which this run does not probe/,
    'Add load to --kinds, or name a kind the run probes.',
  ),
  usage(
    'threshold-target-not-run',
    "`--threshold 'nope:*:p99<5ms'`",
    /^dbprobe: --threshold "nope:\*:p99<5ms" names target "nope", which this run does not probe; its targets: lite/,
    'Name a target of the run, or use *.',
  ),
];

/** Rows that run and must not pass: exit 1, each naming what happened. */
const RUN_FAILS: Row[] = [
  {
    id: 'cli.cold-failed-beside-initial',
    input: '`--kinds initial,cold` with a suspend command that does not exist',
    setup: 'one libSQL file target, cold.command ["/nonexistent/suspend-me"], one cold sample',
    exit: 1,
    errorClass: 'config',
    line: /^dbprobe: target "lite" \(libsql\) failed \[cold\]: config: could not start the suspend command .*check the target's "cold" settings/,
    todo: 'Fix cold.command (run it by hand from the same folder); the initial figures stand, but the run fails until every asked kind measures.',
  },
  {
    id: 'cli.cold-command-fails',
    input: 'a suspend command that exits non-zero',
    setup: 'one libSQL file target, cold.command ["sh", "-c", "exit 3"]',
    exit: 1,
    errorClass: 'config',
    line: /^dbprobe: target "lite" \(libsql\) failed \[cold\]: config: the suspend command "sh -c exit 3" exited with code 3.*"cold" settings/,
    todo: 'Run the suspend command by hand to see why it fails.',
  },
  {
    id: 'cli.schedule-zero-requests',
    input: '`--kinds schedule --rate 0.5 --duration 1` (0 requests asked)',
    setup: 'one libSQL file target',
    exit: 2,
    line: /^dbprobe: --rate \(schedule\.rate\): 0\.5\/s for 1 s asks for 0\.5 starts, fewer than one, so nothing would run; raise the duration \(schedule\.durationS\) to at least 2 s/,
    todo: 'Make rate x duration at least 1 request (checked before anything runs).',
  },
  {
    id: 'cli.load-zero-requests',
    input: '`--kinds load --duration 0.000001` (levels too short for a query)',
    setup: 'one libSQL file target, --concurrency 1',
    exit: 1,
    line: /^dbprobe: target "lite" \(libsql\) measured nothing \[load\]: no query ran in any level/,
    todo: 'Give each level a duration long enough for queries (seconds, not microseconds).',
  },
  {
    id: 'cli.threshold-on-nothing',
    input: "`--threshold '*:*:errors<1%'` on a kind that ran nothing",
    setup: 'one libSQL file target, --kinds load --duration 0.000001 --concurrency 1',
    exit: 1,
    line: /^dbprobe: threshold failed: target "lite" load errors no sample \(nothing ran\), limit < 1\.0%/,
    todo: 'Make the kind run (see the measured-nothing line); a check on nothing never passes.',
  },
  {
    id: 'cli.workload-wrong-family',
    input: 'a workload preset for another kind of database (`get-1kb` on libSQL)',
    setup: 'one libSQL file target, "workload": "get-1kb", "allowWrites": true',
    exit: 1,
    errorClass: 'config',
    line: /^dbprobe: target "lite" \(libsql\) failed \[initial\]: config: workload "get-1kb" is for redis targets.*This is the target's workload, not its connection/,
    todo: 'Pick a workload preset for the driver (the message lists them), or write a query.',
  },
  {
    id: 'cli.workload-pgbench-libsql',
    input: '`"workload": "pgbench-tx"` on libSQL',
    setup: 'one libSQL file target, "allowWrites": true',
    exit: 1,
    errorClass: 'config',
    line: /^dbprobe: target "lite" \(libsql\) failed \[initial\]: config: workload "pgbench-tx" sends one multi-statement transaction.*This is the target's workload/,
    todo: 'Use pgbench-tx with pg or neon-ws.',
  },
  {
    id: 'cli.query-syntax',
    input: 'a query with a syntax error',
    setup: 'one libSQL file target, "query": "SELEC 1"',
    exit: 1,
    errorClass: 'query',
    line: /^dbprobe: target "lite" \(libsql\) failed \[initial\]: query: .*syntax error.*rejected the workload/,
    todo: "Fix the target's query.",
  },
  {
    id: 'cli.read-only-database',
    input: 'a write on a read-only database (a replica, a read-only transaction)',
    setup: 'the testbed PostgreSQL with options=-c default_transaction_read_only=on, query CREATE TABLE',
    exit: 1,
    errorClass: 'permission',
    line: /^dbprobe: target "pg ro" \(pg\) failed \[initial\]: permission: cannot execute CREATE TABLE in a read-only transaction\. .*refused this operation/,
    todo: 'Use a read-only workload, or connect to the primary as a user allowed to write.',
  },
  {
    id: 'cli.own-query-timeout',
    input: 'a query slower than timeouts.queryMs',
    setup: 'the testbed PostgreSQL, SELECT pg_sleep(1), queryMs 200',
    exit: 1,
    errorClass: 'timeout',
    line: /^dbprobe: target "pg slow" \(pg\) failed \[initial\]: timeout: query timed out after 200 ms\. dbprobe's own query timeout cut this off: the server did not answer in time.*raise timeouts\.queryMs/,
    todo: 'Raise timeouts.queryMs if the query is only slow.',
  },
  {
    id: 'cli.fan-out-runner-unreachable',
    input: 'a fan-out with a runner nothing listens on',
    setup: '--fan-out --here --runner http://127.0.0.1:CLOSED --kinds load',
    exit: 1,
    line: /^dbprobe: cannot reach runner http:\/\/127\.0\.0\.1:\d+: .*; the fan-out did not start, nothing was measured/,
    todo: 'Start the runner, or fix its URL; no place starts until every runner answers.',
  },
  {
    id: 'cli.fan-out-runner-refuses-token',
    input: 'a fan-out with a runner that refuses the token',
    setup: 'a stand-in runner on 127.0.0.1 answering 401 unauthorized',
    exit: 1,
    line: /^dbprobe: runner http:\/\/127\.0\.0\.1:\d+ answered 401: Missing or wrong bearer token.*the fan-out did not start, nothing was measured/,
    todo: 'Set DBPROBE_TOKEN to the token the runner was started with.',
  },
  {
    id: 'cli.fan-out-runner-not-dbprobe',
    input: 'a fan-out with a URL that is not a dbprobe runner',
    setup: 'a stand-in on 127.0.0.1 answering 200 text/html',
    exit: 1,
    line: /^dbprobe: runner http:\/\/127\.0\.0\.1:\d+ answered its health check with something that is not (JSON|a dbprobe health report).*the fan-out did not start/,
    todo: 'Point --runner at a dbprobe runner.',
  },
  {
    id: 'cli.fan-out-runner-lacks-driver',
    input: 'a fan-out with a runner that lacks a driver the plan needs',
    setup: 'a stand-in runner on 127.0.0.1 whose health lists only pg',
    exit: 1,
    line: /^dbprobe: runner http:\/\/127\.0\.0\.1:\d+ has no driver libsql \(it has pg\).*the fan-out did not start/,
    todo: 'Run those targets elsewhere, or deploy a runner with the driver.',
  },
];

export const CLI_ROWS: BadInput[] = [
  ...FLAGS_IGNORED,
  ...OUTPUTS,
  ...BOUNDS,
  ...THRESHOLDS,
  ...RUN_FAILS,
].map((row) => ({ ...row, area: 'cli' }));
