/**
 * The catalogue's second round of edges: a terminal that hangs up under a finished report, outputs
 * that are not files, load verdicts on finished and cut levels, thresholds by any probed name,
 * limits below the clock's resolution, flags a run would ignore. Each is one case of
 * test/cli/hang-ups.test.ts. Pure data.
 */
import type { BadInput } from './badInputs';

type Row = Omit<BadInput, 'area'>;

const ROWS: Row[] = [
  {
    id: 'hang-ups.terminal-closed',
    input: 'the terminal closes under a run (stdout on a pty whose master closes: an ssh session drops)',
    setup: 'one libSQL file target, 1,000,000 subsequent samples; the pty closed once the run is under way',
    exit: 129,
    line: /^dbprobe: could not write the report to stdout \(the terminal closed\); wrote it to \S+ instead/,
    todo: 'Nothing to fix: the report is in the file named; the exit code (129) says the terminal closed.',
  },
  {
    id: 'hang-ups.low-rate-level-finished',
    input:
      '`--kinds load --rate 3 --concurrency 2 --duration 1` (the level ends with its last answer, at 0.7 s)',
    setup: 'one libSQL file target; the Markdown report on stdout',
    exit: 0,
    line: /^$/,
    todo: 'Nothing to fix: a level that ran its schedule is judged ("kept up at 3/s"), never called cut.',
  },
  {
    id: 'hang-ups.cancel-cut-level',
    input: 'Ctrl-C in the middle of a load level (`--rate 200 --duration 30`)',
    setup: 'one libSQL file target; SIGINT 1.5 s into the level; the Markdown report on stdout',
    exit: 130,
    line: /^dbprobe: run cancelled: .*; the report holds what was measured so far$/,
    todo: 'Nothing to fix: the cut level is "not judged" in the headline and the table; run again for the whole duration.',
  },
  {
    id: 'hang-ups.rate-below-one-start',
    input: '`--kinds load --rate 0.5 --duration 1` (rate x duration under one start)',
    setup: 'one libSQL file target',
    exit: 2,
    line: /^dbprobe: --rate \(load\.levels\): 0\.5\/s for 1 s asks for 0\.5 starts, fewer than one, so nothing would run; raise the duration \(load\.durationS\) to at least 2 s or the rate to at least 1\/s$/,
    todo: 'Raise --duration or --rate so each level asks for at least one start.',
  },
  {
    id: 'hang-ups.out-fifo-no-reader',
    input: '`--out pipe` where `pipe` is a named pipe (mkfifo) that nothing reads',
    setup: 'one libSQL file target; a FIFO made by the test',
    exit: 2,
    line: /^dbprobe: --out \S+pipe: it is a named pipe \(FIFO\) that nothing reads, so the output would wait for a reader forever; start the reader first .*nothing was measured yet$/,
    todo: 'Start the reader first (`cat pipe &`), or give a file path.',
  },
  {
    id: 'hang-ups.out-fifo-with-reader',
    input: '`--out pipe` where a reader (`cat pipe`) waits on the named pipe',
    setup: 'one libSQL file target; a FIFO made by the test, read by cat',
    exit: 0,
    line: /^wrote markdown report to \S+pipe$/,
    todo: 'Nothing to fix: the reader gets the whole report.',
  },
  {
    id: 'hang-ups.out-dash',
    input: '`--out -`',
    setup: 'one libSQL file target',
    exit: 0,
    line: /^$/,
    todo: 'Nothing to fix: `-` is stdout, as in other tools; no file named "-" is written.',
  },
  {
    id: 'hang-ups.out-new-folder-slash',
    input: '`--out newdir/` (a folder that does not exist, named with a trailing slash)',
    setup: 'one libSQL file target',
    exit: 2,
    line: /^dbprobe: --out newdir\/ ends with a slash, so it names a folder, and there is no folder \S+newdir; create it and give a file in it \(newdir\/report\.md\), or drop the slash/,
    todo: 'Create the folder and name a file in it, or drop the slash.',
  },
  {
    id: 'hang-ups.threshold-orm-twin',
    input:
      '`--threshold "lite · drizzle:subsequent:p50<1s"` (the ORM twin of a target with `"orm": "drizzle"`)',
    setup: "one libSQL file target with the drizzle layer; the project's drizzle-orm linked into the folder",
    exit: 0,
    line: /^dbprobe: thresholds: all 1 checks passed$/,
    todo: 'Nothing to fix: a threshold may name any name the run measures, the raw target or its `name · layer` twin.',
  },
  {
    id: 'hang-ups.threshold-below-resolution',
    input: "`--threshold '*:*:p99<0.0001us'` (a limit under the clock's 1 µs)",
    setup: 'one libSQL file target',
    exit: 2,
    line: /^dbprobe: --threshold "\*:\*:p99<0\.0001us": "p99<0\.0001us" is below 1 µs, the clock's resolution: latencies are whole microseconds, so it can never be met; give a limit of at least 1us/,
    todo: 'Give a limit of at least 1 µs (e.g. 50us or 0.05ms).',
  },
  {
    id: 'hang-ups.max-latency-below-resolution',
    input: "`--kinds load --max-latency 0.0001ms` (a limit under the clock's 1 µs)",
    setup: 'one libSQL file target',
    exit: 2,
    line: /^dbprobe: --max-latency 0\.0001ms is below 1 µs, the clock's resolution: every query would exceed it; give a limit of at least 1us$/,
    todo: 'Give a limit of at least 1 µs.',
  },
  {
    id: 'hang-ups.app-rtt-load-only',
    input: '`--app-rtt 10 --kinds load` (nothing of a load run is projected to the app)',
    setup: 'one libSQL file target',
    exit: 2,
    line: /^dbprobe: --app-rtt 10 applies to the initial or subsequent kind, but --kinds \(or the config's kinds\) is load, so it would be ignored: add initial to --kinds, or drop --app-rtt$/,
    todo: 'Add initial or subsequent to --kinds, or drop --app-rtt.',
  },
  {
    id: 'hang-ups.app-rtt-embedded',
    input: '`--app-rtt 10` on an embedded libSQL file target',
    setup: 'one libSQL file target, five initial samples',
    exit: 0,
    line: /^dbprobe: --app-rtt 10 leaves out lite: an embedded database runs inside this process, with no network round trips to project to your app; its figures are from here only$/,
    todo: 'Nothing to fix: an embedded database has no network to project over; its figures stand for any place.',
  },
  {
    id: 'hang-ups.schedule-mostly-dropped',
    input: '`--kinds schedule --rate 100000 --duration 1` (far more than the target can start)',
    setup: 'one libSQL file target, two queries a request',
    exit: 1,
    line: /^dbprobe: target "lite" \(libsql\) did not keep the schedule \[schedule\]: [\d,]+ of 100,000 asked were never started \(dropped\); its figures do not describe 100,000 requests\/s; lower --rate/,
    todo: 'Lower --rate to what the database and this client can serve.',
  },
  {
    id: 'hang-ups.signal-during-otlp-export',
    input:
      'SIGTERM while the finished run is sent to an OTLP receiver that accepts and never answers (`OTEL_EXPORTER_OTLP_TIMEOUT=60000`)',
    setup:
      'one libSQL file target, `--out r.md --otlp URL`; a TCP server that never answers; SIGTERM on its first connection',
    exit: 143,
    line: /^dbprobe: OpenTelemetry: stopped before the receiver took the data \(it had 1 s after the signal\); the run's report stands without it$/,
    todo: 'Nothing to fix: the report is written, and a signal ends the export within a second.',
  },
  {
    id: 'hang-ups.watch-otlp-slow-receiver',
    input: '`dbprobe watch --every 1s --otlp URL` with a receiver that accepts and never answers',
    setup: 'one libSQL file target, three runs, `OTEL_EXPORTER_OTLP_TIMEOUT=4000`',
    exit: 0,
    line: /^dbprobe: OpenTelemetry: the receiver did not take the data within 4 s; the run's report stands without it/,
    todo: 'Check the receiver; the runs keep their schedule meanwhile (the export never holds back the next run).',
  },
  {
    id: 'hang-ups.tls-csv',
    input: 'pg `sslmode=no-verify` with `--format csv`',
    setup: "one pg target on the testbed's self-signed TLS server, no CA given",
    exit: 0,
    line: /^dbprobe: TLS not verified for tls: the connection string's sslmode=no-verify \(no certificate check\)/,
    todo: "Nothing to fix: every CSV row says it too (column tls_not_verified), as the Markdown, the JSON, OTLP's `dbprobe.tls.not_verified` and the watch's /metrics do.",
  },
  {
    id: 'hang-ups.tls-watch',
    input: '`dbprobe watch` of a pg target with `sslmode=no-verify`',
    setup: "one pg target on the testbed's self-signed TLS server, one run",
    exit: 0,
    line: /^dbprobe watch: TLS not verified for tls: the connection string's sslmode=no-verify \(no certificate check\)/,
    todo: 'Nothing to fix: said once at the first run, and /metrics has dbprobe_target_tls_verified 0 for it.',
  },
  {
    id: 'hang-ups.tls-compare-differs',
    input: '`dbprobe compare base.json head.json` where HEAD did not check the certificate and BASE did',
    setup: 'a saved run, and a copy marked tls.insecure by the connection string',
    exit: 0,
    line: /^dbprobe: TLS not verified for lite in HEAD only: its server certificate was checked in BASE and not in HEAD, so a change between them may be another server answering/,
    todo: 'Compare runs that checked the certificate alike; the comparison stands, marked.',
  },
  {
    id: 'hang-ups.tls-libpq-verify-ca-with-ca-file',
    input: 'pg `sslmode=verify-ca&uselibpqcompat=true` on a target that sets `tls.caFile`',
    setup: "one pg target on the testbed's TLS server, tls.caFile the testbed CA",
    exit: 1,
    errorClass: 'config',
    line: /^dbprobe: target "tls" \(pg\) failed \[initial\]: config: the connection string's sslmode=verify-ca with uselibpqcompat=true \(no host name check\) turns the host name check off, and tls\.caFile asks for them/,
    todo: 'Keep one: drop the sslmode to verify fully against tls.caFile, or drop tls.caFile (and set tls.insecure).',
  },
  {
    id: 'hang-ups.layer-missing',
    input: 'a target with `"orm": "drizzle"` in a project without drizzle-orm',
    setup: 'one libSQL file target with the drizzle layer, an empty project folder',
    exit: 2,
    line: /^dbprobe: target "lite" goes through the "drizzle" layer, which runs your project's own drizzle-orm \(0\.45\.0 or later, below 1\.0\.0\), and it is not installed in your project .*; install it \(npm install drizzle-orm@\^0\.45\.0\), or remove "orm" from the target; nothing was measured yet$/,
    todo: 'Install a supported version of the package in your project, or remove "orm".',
  },
  {
    id: 'hang-ups.layer-unsupported-version',
    input: 'a target with `"orm": "drizzle"` in a project with drizzle-orm 0.28.6',
    setup:
      'one libSQL file target with the drizzle layer; the project holds a drizzle-orm package.json of 0.28.6',
    exit: 2,
    line: /^dbprobe: target "lite" goes through the "drizzle" layer, which supports drizzle-orm 0\.45\.0 or later, below 1\.0\.0, and your project has drizzle-orm 0\.28\.6 .*nothing was measured yet$/,
    todo: 'Upgrade the package to a supported version (npm install drizzle-orm@^0.45.0), or remove "orm".',
  },
  {
    id: 'hang-ups.layer-on-runner',
    input: 'a target with `"orm": "drizzle"` run with `--runner URL`',
    setup:
      'one libSQL file target with the drizzle layer; DBPROBE_TOKEN set; no runner needed (refused first)',
    exit: 2,
    line: /^dbprobe: target "lite" goes through the "drizzle" layer, which runs your project's own drizzle-orm on this machine: a runner has no project, so layers do not run there/,
    todo: 'Measure layered targets on this machine (drop --runner for them), or remove "orm".',
  },
  {
    id: 'hang-ups.driver-unsupported-version',
    input: "a pg target in a project that holds pg 7.18.2 (the app's own, older than the driver supports)",
    setup: 'one pg target (nothing listens: refused first); the project holds a pg package.json of 7.18.2',
    exit: 2,
    line: /^dbprobe: driver pg \(target "pg"\) supports pg 8\.0\.0 or later, below 9\.0\.0, and your project has pg 7\.18\.2 .*nothing was measured yet$/,
    todo: 'Upgrade pg in the project (npm install pg@^8), or run dbprobe from a folder outside it to measure with its bundled pg.',
  },
];

export const HANG_UP_ROWS: BadInput[] = ROWS.map((row) => ({ ...row, area: 'hang-ups' as const }));
