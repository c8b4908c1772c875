/**
 * The catalogue's `edges` rows: outputs that fail or collide, saved results that are not what they
 * claim, signals, certificate checks turned off from a connection string, and the smaller answers
 * that used to bend (a flag repeated, a negative value, a threshold that cannot pass). Each is one
 * case of test/cli/edges.test.ts, which also checks the figures where a report must survive. Pure data.
 */
import type { BadInput } from './badInputs';

type Row = Omit<BadInput, 'area'>;

const SAME_FILE = /^dbprobe: --\S+ \S+ and --\S+ \S+ name the same file: one would overwrite the other/;

const OUTPUT_ROWS: Row[] = [
  {
    id: 'edges.raw-disk-full',
    input: '`--raw /dev/full` on a load run (the disk fills while the requests are written)',
    setup: 'one libSQL file target, --kinds load --concurrency 2 --duration 0.5 --format json',
    exit: 1,
    line: /^dbprobe: could not write --raw \/dev\/full \(no space left on the device\): the file misses requests .*; the report is complete/,
    todo: 'Give --raw a path with room for the requests; the report on stdout (or --out) is complete.',
  },
  {
    id: 'edges.raw-disk-full-with-out',
    input: '`--raw /dev/full --out report.json`',
    setup: 'as above, the report to --out',
    exit: 1,
    line: /^dbprobe: could not write --raw \/dev\/full \(no space left on the device\)/,
    todo: 'Give --raw a path with room for the requests; --out holds the whole report.',
  },
  {
    id: 'edges.raw-and-out-same-file',
    input: '`--raw x --out x`',
    setup: 'one libSQL file target, --kinds load',
    exit: 2,
    line: SAME_FILE,
    todo: 'Give each output its own path.',
  },
  {
    id: 'edges.out-and-verdicts-same-file',
    input: '`--out x.md --verdicts ./sub/../x.md` (one file, two spellings)',
    setup: 'one libSQL file target',
    exit: 2,
    line: SAME_FILE,
    todo: 'Give each output its own path.',
  },
  {
    id: 'edges.raw-is-the-config',
    input: '`--raw dbprobe.json`',
    setup: 'one libSQL file target, --kinds load; the config must be intact afterwards',
    exit: 2,
    line: /^dbprobe: --raw \S+dbprobe\.json is the config file this command reads .*writing it would destroy it/,
    todo: 'Write --raw somewhere else: the config is read, never written.',
  },
  {
    id: 'edges.out-is-the-baseline',
    input: '`dbprobe run --baseline base.json --out base.json`',
    setup: 'a result saved by a run of the same target; it must be intact afterwards',
    exit: 2,
    line: /^dbprobe: --out \S+base\.json is the --baseline result this command reads/,
    todo: 'Write the report somewhere else, and keep the baseline you compare against.',
  },
  {
    id: 'edges.compare-out-is-base',
    input: '`dbprobe compare base.json head.json --out base.json`',
    setup: 'two saved results; base.json must be intact afterwards',
    exit: 2,
    line: /^dbprobe: --out \S+base\.json is BASE, a result this command reads/,
    todo: 'Write the comparison somewhere else.',
  },
  {
    id: 'edges.verdicts-disk-full',
    input: '`--verdicts /dev/full`',
    setup: 'one libSQL file target, a threshold that passes',
    exit: 1,
    line: /^dbprobe: could not write the --verdicts JSON to \/dev\/full \(no space left on the device\); the report and the other outputs stand/,
    todo: 'Give --verdicts a path that can be written; the verdicts are on stderr meanwhile.',
  },
  {
    id: 'edges.summary-disk-full',
    input: '`--summary /dev/full`',
    setup: 'one libSQL file target',
    exit: 1,
    line: /^dbprobe: could not append the job summary .* to \/dev\/full \(no space left on the device\)/,
    todo: 'Give --summary (or GITHUB_STEP_SUMMARY) a path that can be written.',
  },
  {
    id: 'edges.compare-summary-disk-full',
    input: '`dbprobe compare base.json head.json --summary /dev/full`',
    setup: 'two saved results',
    exit: 1,
    line: /^dbprobe: could not append the change report .* to \/dev\/full \(no space left on the device\)/,
    todo: 'Give --summary (or GITHUB_STEP_SUMMARY) a path that can be written; stdout has the comparison.',
  },
];

const RESULT_FILE_ROWS: Row[] = [
  {
    id: 'edges.compare-dev-zero',
    input: '`dbprobe compare /dev/zero head.json` (a device that never ends)',
    setup: 'a saved HEAD',
    exit: 2,
    line: /^dbprobe: BASE \/dev\/zero is not a regular file \(a device, a pipe or a folder\)/,
    todo: 'Pass results saved with `dbprobe run --format json --out FILE`.',
  },
  {
    id: 'edges.compare-negative-latencies',
    input: 'a saved result whose latencies were edited to negative numbers',
    setup: 'HEAD = BASE with every `us` negated',
    exit: 2,
    line: /^dbprobe: HEAD \S+ is not a dbprobe run result this tool can compare: measurements\[0\]\.samples\.values\[0\]\.us: must be a latency in µs from 0 to 3600000000 \(an hour; got -\d+\)/,
    todo: 'Compare results as dbprobe saved them.',
  },
  {
    id: 'edges.compare-text-latencies',
    input: 'a saved result whose latencies are text',
    setup: 'HEAD = BASE with every `us` set to "abc"',
    exit: 2,
    line: /^dbprobe: HEAD \S+ is not a dbprobe run result .*\.us: must be a latency in µs .*got "abc"/,
    todo: 'Compare results as dbprobe saved them.',
  },
  {
    id: 'edges.compare-huge-latencies',
    input: 'a saved result with latencies of 1e308 µs',
    setup: 'HEAD = BASE with every `us` set to 1e308',
    exit: 2,
    line: /^dbprobe: HEAD \S+ is not a dbprobe run result .*\.us: must be a latency in µs from 0 to 3600000000 \(an hour; got 1e\+308\)/,
    todo: 'Compare results as dbprobe saved them.',
  },
  {
    id: 'edges.baseline-negative-latencies',
    input: '`dbprobe run --baseline neg.json` with negative latencies in it',
    setup: 'one libSQL file target; refused before anything is probed',
    exit: 2,
    line: /^dbprobe: --baseline \S+ is not a dbprobe run result this tool can compare: .*\.us: must be a latency/,
    todo: 'Pass a baseline saved with `dbprobe run --format json --out FILE`.',
  },
];

const SIGNAL_AND_SELECTION_ROWS: Row[] = [
  {
    id: 'edges.sighup-keeps-report',
    input: 'the terminal closes (SIGHUP) during a load run with `--out`',
    setup: 'one libSQL file target, --kinds load --duration 30, SIGHUP once the level reports progress',
    exit: 129,
    line: /^dbprobe: run cancelled: .*; the report holds what was measured so far$/,
    todo: 'Nothing to fix: the report keeps what was measured; run again for the whole duration.',
  },
  {
    id: 'edges.cold-other-target-unset',
    input: '`--targets lite --kinds cold` beside a target with no `cold` settings',
    setup: 'two libSQL file targets, only "lite" has a cold command',
    exit: 0,
    line: /^dbprobe: target "lite" runs this suspend command before each cold sample: true$/,
    todo: 'Nothing to fix: the targets left out are not checked for the cold kind.',
  },
];

const TLS_ROWS: Row[] = [
  ...(
    [
      ['pg-no-verify', 'pg', 'pg `sslmode=no-verify`', 'sslmode=no-verify \\(no certificate check\\)'],
      [
        'pg-libpq-require',
        'pg',
        'pg `sslmode=require&uselibpqcompat=true`',
        'sslmode=require with uselibpqcompat=true \\(no certificate check\\)',
      ],
      [
        'mysql2-reject-unauthorized',
        'mysql2',
        'mysql2 `ssl={"rejectUnauthorized":false}`',
        'ssl=\\{"rejectUnauthorized":false\\} \\(no certificate check\\)',
      ],
      [
        'mongodb-allow-invalid-certificates',
        'mongodb',
        'mongodb `tlsAllowInvalidCertificates=true`',
        'tlsAllowInvalidCertificates=true \\(no certificate check\\)',
      ],
      [
        'mongodb-tls-insecure',
        'mongodb',
        'mongodb `tlsInsecure=true`',
        'tlsInsecure=true \\(no certificate check\\)',
      ],
    ] as const
  ).map(([id, driver, input, setting]): Row => ({
    id: `edges.tls-${id}`,
    input: `${input} against the testbed's self-signed TLS server, no CA given`,
    setup: `one ${driver} target on the testbed's TLS server, --format json --summary FILE`,
    exit: 0,
    line: new RegExp(
      `^dbprobe: TLS not verified for tls: the connection string's ${setting}; the connections were encrypted, but the server certificate was not checked`,
    ),
    todo: 'Measured as asked, and marked as tls.insecure everywhere (JSON, Markdown, panel, stderr). To verify, drop the setting and name the CA in tls.caFile.',
  })),
  {
    id: 'edges.tls-mongodb-allow-invalid-hostnames',
    input: "mongodb `tlsAllowInvalidHostnames=true` against the testbed's self-signed TLS server",
    setup: 'one mongodb target on the testbed TLS server, --format json',
    exit: 1,
    line: /^dbprobe: TLS not verified for tls: the connection string's tlsAllowInvalidHostnames=true \(no host name check\)/,
    todo: 'The host name is not checked (the run is marked tls.insecure); the certificate still is, so name its CA in tls.caFile.',
  },
  {
    id: 'edges.tls-no-verify-with-ca-file',
    input: 'pg `sslmode=no-verify` on a target that sets `tls.caFile`',
    setup: "one pg target on the testbed's TLS server, tls.caFile the testbed CA",
    exit: 1,
    errorClass: 'config',
    line: /^dbprobe: target "tls" \(pg\) failed \[initial\]: config: the connection string's sslmode=no-verify \(no certificate check\) turns certificate checks off, and tls\.caFile asks for them/,
    todo: 'Keep one: drop sslmode=no-verify to verify against tls.caFile, or drop tls.caFile (and set tls.insecure).',
  },
];

const SMALL_ROWS: Row[] = [
  {
    id: 'edges.threshold-p99-at-most-zero',
    input: "`--threshold '*:*:p99<=0ms'`",
    setup: 'one libSQL file target',
    exit: 2,
    line: /^dbprobe: --threshold "\*:\*:p99<=0ms": "p99<=0" can never be met: no latency is 0; give a limit above 0/,
    todo: 'Give a latency limit above 0.',
  },
  {
    id: 'edges.raw-without-load',
    input: '`--raw r.ndjson` with `--kinds initial`',
    setup: 'one libSQL file target',
    exit: 2,
    line: /^dbprobe: --raw r\.ndjson applies to the load or schedule kind, but .* is initial, so it would be ignored/,
    todo: 'Add load or schedule to --kinds, or drop --raw.',
  },
  {
    id: 'edges.rtt-with-json',
    input: '`--rtt 1,10 --format json`',
    setup: 'one libSQL file target, no job summary',
    exit: 2,
    line: /^dbprobe: --rtt sets the RTTs of the Markdown report's .* and --format json writes no Markdown .*so it would be ignored/,
    todo: 'Drop --rtt, or write Markdown (--format markdown, or --summary FILE).',
  },
  {
    id: 'edges.repeated-out',
    input: '`--out a.md --out b.md`',
    setup: 'one libSQL file target',
    exit: 2,
    line: /^dbprobe: --out is given 2 times \("a\.md", "b\.md"\) and takes one value/,
    todo: 'Give the flag once.',
  },
  {
    id: 'edges.repeated-threads',
    input: '`--threads 1 --threads 2`',
    setup: 'one libSQL file target, --kinds load',
    exit: 2,
    line: /^dbprobe: --threads is given 2 times \("1", "2"\) and takes one value/,
    todo: 'Give the flag once.',
  },
  {
    id: 'edges.negative-iterations',
    input: '`--iterations -5`',
    setup: 'one libSQL file target',
    exit: 2,
    line: /^dbprobe: --iterations must be a whole number from 1 to 1000000 \(got "-5"\)/,
    todo: 'Give a whole number of iterations from 1.',
  },
  {
    id: 'edges.negative-duration',
    input: '`--duration -1`',
    setup: 'one libSQL file target, --kinds load',
    exit: 2,
    line: /^dbprobe: --duration must be a number above 0, up to .* \(got "-1"\)/,
    todo: 'Give a duration above 0 seconds.',
  },
  {
    id: 'edges.flag-error-named-as-flag',
    input: '`--iterations 0` (a value the plan refuses)',
    setup: 'one libSQL file target',
    exit: 2,
    line: /^dbprobe: --iterations: must be a whole number from 1 to 1000000 \(got 0\)$/,
    todo: 'Use 1 to 1,000,000 iterations.',
  },
  {
    id: 'edges.watch-ipv6-url',
    input: '`dbprobe watch --host ::1`',
    setup: 'one libSQL file target, watch stopped with SIGINT once it serves',
    exit: 0,
    line: /^dbprobe watch: serving http:\/\/\[::1\]:\d+\/metrics/,
    todo: 'Nothing to fix: the URL puts an IPv6 address in brackets, as URLs must.',
  },
  {
    id: 'edges.pg-too-many-clients',
    input:
      "PostgreSQL refuses the session: too many connections (SQLSTATE 53300, here a role's CONNECTION LIMIT 0)",
    setup: "a role made for the test on the testbed's PostgreSQL with CONNECTION LIMIT 0",
    exit: 1,
    errorClass: 'closed',
    line: /^dbprobe: target "pg limit" \(pg\) failed \[initial\]: closed: too many connections for role .*check server logs, connection limits/,
    todo: "Raise the server's max_connections (or the role's limit), or close other clients.",
  },
  {
    id: 'edges.planetscale-error-without-message',
    input: 'a PlanetScale endpoint answering HTTP 500 with `{"error": {}}`',
    setup: 'a small HTTP server on 127.0.0.1',
    exit: 1,
    line: /^dbprobe: target "ps" \(planetscale\) failed \[initial\]: unknown: the PlanetScale API answered HTTP 500 with an error and no message/,
    todo: 'Check the URL points at a PlanetScale database API, and its status.',
  },
  {
    id: 'edges.nothing-measured-no-figures',
    input: 'a load level too short for one query, without `--quiet`',
    setup: 'one libSQL file target, --kinds load --duration 0.000001',
    exit: 1,
    line: /^lite load: measured nothing$/,
    todo: 'Raise --duration so each level runs queries.',
  },
];

/** Answers that were true but unclear: each now says what happened, what it means, what to do. */
const CLEARER_ROWS: Row[] = [
  {
    id: 'edges.runner-url-is-a-secret',
    input: "`--runner URL` where URL is also a target's connection string (a secret the run masks)",
    setup: 'a pg target at env:RUNNER_URL, the same URL as --runner, nothing listening there',
    exit: 1,
    line: /^dbprobe: cannot reach runner --runner #1 \(not shown: it holds a secret of this run\): [^;]+; check the URL and that the runner is up$/,
    todo: 'Check the first --runner URL; it is not printed because a connection string of the run holds it.',
  },
  {
    id: 'edges.otlp-load-only',
    input: '`--otlp URL --kinds load` (OpenTelemetry gets per-sample kinds only)',
    setup: 'one libSQL file target',
    exit: 2,
    line: /^dbprobe: --otlp \S+ applies to the initial, subsequent or cold kind, but --kinds \(or the config's kinds\) is load, so it would be ignored/,
    todo: 'Add initial, subsequent or cold to --kinds, or drop --otlp.',
  },
  {
    id: 'edges.otlp-env-load-only',
    input: '`OTEL_EXPORTER_OTLP_ENDPOINT` set (a CI-wide setting) and a load-only run',
    setup: 'one libSQL file target; a 127.0.0.1 HTTP server taking OTLP',
    exit: 0,
    line: /^dbprobe: OpenTelemetry: lite load: not sent \(OpenTelemetry gets one operation per initial, subsequent or cold sample; a load run's requests are summaries, in the report only\)$/,
    todo: 'Nothing to fix: the load figures are in the report; add a per-sample kind to send something.',
  },
  {
    id: 'edges.compare-failed-in-head',
    input: '`dbprobe compare base.json head.json` where every sample of the target failed in HEAD',
    setup:
      'BASE a real run of the libSQL file; HEAD a real run of the same target at a file that cannot be opened',
    exit: 1,
    line: /^dbprobe: target "lite" initial: every sample failed in HEAD \(\d+ failed: config \d+\) while BASE measured 30, so there are no latencies to compare; exit 1, as for a regression: see why in HEAD's firstErrors/,
    todo: "Fix the target (HEAD's firstErrors say why it failed) and run HEAD again.",
  },
  {
    id: 'edges.compare-failed-in-base',
    input: '`dbprobe compare base.json head.json` where every sample of the target failed in BASE',
    setup:
      'BASE a real run of the libSQL file at a file that cannot be opened; HEAD a real run of the same target',
    exit: 2,
    line: /^dbprobe: not comparable: lite initial: every sample failed in BASE \(\d+ failed: config \d+\) while HEAD measured 30, so there are no latencies to compare; nothing was compared, which is an error, not a pass: see why in BASE's firstErrors, measure BASE again, then compare$/,
    todo: "Fix what BASE's firstErrors name, measure BASE again and compare.",
  },
  {
    id: 'edges.port-silent-protocol',
    input:
      'a pg target whose port accepts TCP and never speaks (another service, a tunnel with nothing behind it)',
    setup: 'a 127.0.0.1 TCP server that accepts and never writes; timeouts.connectMs 1000',
    exit: 1,
    errorClass: 'timeout',
    line: /^dbprobe: target "silent" \(pg\) failed \[initial\]: timeout: connect timed out after 1000 ms: the server accepted the TCP connection and then sent not one byte\. Whatever listens on that host and port did not answer in time in the protocol driver pg speaks/,
    todo: 'Check the port in the connection string (and TLS against a plaintext port), and that the database behind it is up.',
  },
];

export const EDGE_ROWS: BadInput[] = [
  ...OUTPUT_ROWS,
  ...RESULT_FILE_ROWS,
  ...SIGNAL_AND_SELECTION_ROWS,
  ...TLS_ROWS,
  ...SMALL_ROWS,
  ...CLEARER_ROWS,
].map((row) => ({ ...row, area: 'edges' as const }));
