/**
 * The bad-input catalogue: every wrong thing a user can hand dbprobe, what they must see, what to do.
 * One row per case; each row is one test (test/integration/bad-inputs-*.test.ts, and
 * test/cli/bad-inputs-table.test.ts for the `cli` rows of cliRows.ts) and one line of
 * docs/bad-inputs.md (test/unit/bad-inputs-doc.test.ts keeps the two in step). Pure data: no I/O.
 *
 * The extension's panel shows the same ProbeFailure {class, message, hint} as the CLI line for every
 * `driver` and `network` row (column `panel`); config rows are caught by the extension's own checks
 * before a run starts.
 */
import type { ErrorClass } from '../../src/shared/errors';
import { CLI_ROWS } from './cliRows';
import { EDGE_ROWS } from './edgeRows';
import { HANG_UP_ROWS } from './hangUpRows';

export const VARIANT_IDS = [
  'pg',
  'mysql2',
  'ioredis',
  'libsql-http',
  'libsql-ws',
  'libsql-file',
  'neon-http',
  'neon-ws',
  'planetscale',
  'mongodb',
  'upstash',
  'http',
] as const;
export type VariantId = (typeof VARIANT_IDS)[number];
/** Variants that reach a server over the network (libsql-file is embedded). */
export const NETWORK_VARIANTS = VARIANT_IDS.filter((v) => v !== 'libsql-file');

export type Area = 'config' | 'connection' | 'network' | 'mid-run' | 'runner' | 'cli' | 'edges' | 'hang-ups';

export interface BadInput {
  id: string;
  area: Area;
  variant?: VariantId;
  /** What the user did (docs: "input"). */
  input: string;
  /** How the test sets it up. */
  setup: string;
  /** The CLI's exit code (129: stopped by SIGHUP, 130: by Ctrl-C, 143: by SIGTERM). */
  exit: 0 | 1 | 2 | 3 | 129 | 130 | 143;
  /** The failure class in the result (driver and network rows). */
  errorClass?: ErrorClass;
  /** The one stderr line that says what happened and what to do. */
  line: RegExp;
  /** Docs: what to do. */
  todo: string;
  /** Why the row cannot be tested here: a named test.todo, never a pass. */
  notTestable?: string;
}

const quote = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `dbprobe: target "cat VARIANT" (DRIVER) failed [initial]: CLASS: ...HINT-ish` */
export const targetName = (variant: VariantId) => `cat ${variant}`;
export const driverOf = (variant: VariantId) => variant.replace(/^libsql-.*/, 'libsql');

const failedLine = (variant: VariantId, errorClass: string, message: string, hint: string) =>
  new RegExp(
    `^dbprobe: target "${quote(targetName(variant))}" \\(${quote(driverOf(variant))}\\) failed \\[initial\\]: ${errorClass}: .*?(${message}).*(${hint})`,
  );
const configLine = (variant: VariantId, message: string) =>
  new RegExp(
    `^dbprobe: target "${quote(targetName(variant))}" \\(${quote(driverOf(variant))}\\): config: ${message}`,
  );

const HINT: Record<ErrorClass, string> = {
  config: 'Fix the connection string',
  dns: 'Check the host name',
  refused: 'Nothing accepted the connection',
  timeout: 'did not answer in time',
  tls: 'The TLS handshake failed',
  auth: 'refused the credentials',
  permission: 'refused this operation',
  query: 'rejected the workload',
  closed: 'closed the connection',
  cancelled: 'cancelled',
  unknown: 'does not recognise',
};

interface NetworkFault {
  fault: string;
  input: string;
  setup: string;
  todo: string;
  /** Class and message pattern per variant (default for all). */
  expect: (variant: VariantId) => {
    errorClass: ErrorClass;
    message: string;
    exit?: 0 | 1;
    /** When the driver may report the fault as either of two classes (a regex alternation). */
    lineClass?: string;
  };
  notTestable?: (variant: VariantId) => string | undefined;
}

const TIMEOUT_MESSAGE = '(connect|query) timed out after 1000 ms|Server selection timed out after 900 ms';

const NETWORK_FAULTS: NetworkFault[] = [
  {
    fault: 'refused',
    input: 'a port nothing listens on',
    setup: 'a closed 127.0.0.1 port',
    todo: 'Check the host and port, and that the server runs and accepts connections from here.',
    expect: () => ({ errorClass: 'refused', message: 'connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+' }),
  },
  {
    fault: 'dns',
    input: 'a host name that does not resolve',
    setup: 'db.dbprobe.invalid (.invalid never resolves)',
    todo: "Check the spelling of the host name and this machine's DNS.",
    expect: () => ({ errorClass: 'dns', message: 'getaddrinfo ENOTFOUND db\\.dbprobe\\.invalid' }),
  },
  {
    fault: 'ipv6',
    input: 'an IPv6 host, `[::1]`, where the server listens on IPv4 only',
    setup: '[::1] and the port of the real server, which listens on 127.0.0.1 only',
    todo: 'IPv6 literals go in brackets, `[::1]:5432`; check that the server listens on IPv6 too.',
    expect: () => ({ errorClass: 'refused', message: 'connect ECONNREFUSED ::1:\\d+' }),
  },
  {
    fault: 'unreachable',
    input: 'a host that never answers the TCP handshake (firewall, wrong network)',
    setup: 'a 127.0.0.1 port whose accept queue is full, so the kernel drops the SYN',
    todo: 'Check firewalls, security groups and the network path; raise timeouts.connectMs for slow links.',
    expect: () => ({ errorClass: 'timeout', message: TIMEOUT_MESSAGE }),
  },
  {
    fault: 'tls',
    input:
      'TLS asked of a server that speaks plain text (`sslmode=require`, `rediss:`, `https:`, `wss:`, `tls=true`), or of a server whose certificate comes from a CA nobody named (pg, mysql2: the testbed servers speak TLS with a private CA)',
    setup:
      'the TLS form of the URL against the plaintext testbed server or stand-in; for pg and mysql2 against the TLS-enabled server without tls.caFile',
    todo: 'Match the TLS setting to the server: drop sslmode/rediss:/https: for a plaintext server, or enable TLS on it; for a private CA set tls.caFile (or NODE_EXTRA_CA_CERTS). A TLS client waiting on a plaintext server shows as a timeout (ioredis, mongodb) or a closed connection (neon-ws).',
    expect: (v) => {
      if (v === 'ioredis') return { errorClass: 'timeout', message: 'connect timed out after 1000 ms' };
      if (v === 'mongodb') return { errorClass: 'timeout', message: TIMEOUT_MESSAGE };
      if (v === 'neon-ws') return { errorClass: 'closed', message: 'read ECONNRESET' };
      if (v === 'pg') return { errorClass: 'tls', message: 'unable to verify the first certificate' };
      if (v === 'mysql2')
        return { errorClass: 'tls', message: 'self-signed certificate in certificate chain' };
      return { errorClass: 'tls', message: '.*wrong version number' };
    },
  },
  {
    fault: 'wrong-credentials',
    input: 'a wrong password or token',
    setup:
      'the real server with another password (token for libsql, upstash, http; for mongodb the testbed FerretDB that authenticates, over PostgreSQL)',
    todo: 'Check the user name and password (or token) of the connection.',
    expect: () => ({ errorClass: 'auth', message: '.+' }),
  },
  {
    fault: 'reset-peer',
    input: 'a server (or proxy) that resets the connection',
    setup: 'toxiproxy reset_peer (timeout 0) in front of the real server',
    todo: "Check the server logs, connection limits and any proxy or load balancer in between. MongoDB's driver retries a reset connection until its server selection gives up, so it shows a timeout.",
    expect: (v) =>
      v === 'mongodb'
        ? {
            errorClass: 'closed',
            message: `ECONNRESET|${TIMEOUT_MESSAGE.replace(/1000/, '2000').replace(/900/, '1750')}`,
            lineClass: '(closed|timeout)',
          }
        : { errorClass: 'closed', message: 'ECONNRESET|fetch failed' },
  },
  {
    fault: 'timeout',
    input: 'a server that stops answering',
    setup: 'toxiproxy timeout (0: data dropped, connection kept)',
    todo: 'Check the server and the network path; raise timeouts.connectMs / queryMs if the server is only slow.',
    expect: () => ({ errorClass: 'timeout', message: TIMEOUT_MESSAGE }),
  },
  {
    fault: 'slicer',
    input: 'a server that trickles its answer byte by byte',
    setup: 'toxiproxy slicer: 1-byte slices 100 ms apart',
    todo: 'The answer did not arrive within the timeout: check the network path, or raise the timeouts.',
    expect: () => ({ errorClass: 'timeout', message: TIMEOUT_MESSAGE }),
  },
  {
    fault: 'bandwidth',
    input: 'a slow link (a few KB/s)',
    setup: 'toxiproxy bandwidth 4 KB/s, 3 s timeouts',
    todo: 'Nothing fails: the sample is measured, slow; the report shows the latency the link costs.',
    expect: () => ({ errorClass: 'timeout', message: '', exit: 0 }),
  },
];

/** Rows where the CLI answers before any connection: the config or the connection string is wrong. */
const CONFIG_ROWS: BadInput[] = [
  {
    id: 'config.unknown-driver',
    area: 'config',
    input: 'an unknown driver id (`"driver": "postgres"`)',
    setup: 'dbprobe.json with driver "postgres"',
    exit: 2,
    line: /^dbprobe: dbprobe\.json: targets\[0\] \("a"\)\.driver: unknown driver "postgres"; use one of: pg, /,
    todo: 'Use one of the driver ids `dbprobe drivers` lists.',
  },
  {
    id: 'config.missing-env',
    area: 'config',
    input: 'a connection `env:VAR` whose variable is not set',
    setup: 'env:CAT_NOT_SET, unset',
    exit: 2,
    line: /^dbprobe: target "a" \(pg\): config: environment variable CAT_NOT_SET is not set .*; set it, e.g. export CAT_NOT_SET=/,
    todo: 'Export the variable with the connection string before running dbprobe.',
  },
  {
    id: 'config.secret-ref',
    area: 'config',
    input: 'a `secret:NAME` reference given to the CLI (it lives in VS Code)',
    setup: 'connection "secret:prod-db"',
    exit: 2,
    line: /^dbprobe: target "a" \(pg\): config: "secret:prod-db" lives in VS Code's secret storage, which the CLI cannot read; use "env:PROD_DB"/,
    todo: 'Use `env:VAR` in the CLI and set the variable.',
  },
  {
    id: 'config.literal-connection',
    area: 'config',
    input: 'a literal connection string (with its password) in dbprobe.json',
    setup: '"connection": "postgres://dbprobe:SENTINEL@127.0.0.1/db"',
    exit: 2,
    line: /^dbprobe: dbprobe\.json: targets\[0\] \("a"\)\.connection: looks like a literal connection string; put it in an environment variable/,
    todo: 'Move the connection string into an environment variable and write `env:VAR`.',
  },
  {
    id: 'config.duplicate-names',
    area: 'config',
    input: 'two targets with the same name',
    setup: 'two targets named "a"',
    exit: 2,
    line: /^dbprobe: dbprobe\.json: targets\[1\]\.name: "a" is used by another target; give each target its own name/,
    todo: 'Give each target its own name.',
  },
  {
    id: 'config.zero-iterations',
    area: 'config',
    input: '`"iterations": 0`',
    setup: 'iterations 0 in dbprobe.json',
    exit: 2,
    line: /^dbprobe: dbprobe\.json: iterations: must be a whole number from 1 to 1000000 \(got 0\)/,
    todo: 'Use 1 to 1,000,000 iterations.',
  },
  {
    id: 'config.absurd-iterations',
    area: 'config',
    input: '`--iterations 99999999999`',
    setup: 'the flag on the command line',
    exit: 2,
    line: /^dbprobe: --iterations: must be a whole number from 1 to 1000000 \(got 99999999999\)/,
    todo: 'Use 1 to 1,000,000 iterations.',
  },
  {
    id: 'config.not-json',
    area: 'config',
    input: 'a dbprobe.json that is not JSON',
    setup: 'a file holding `{"targets": [`',
    exit: 2,
    line: /^dbprobe: config file .*dbprobe\.json is not valid JSON/,
    todo: 'Fix the JSON (an editor with the JSON Schema shows where).',
  },
  {
    id: 'config.huge',
    area: 'config',
    input: 'a 20 MB config file',
    setup: 'dbprobe.json with a 20 MB unknown field',
    exit: 2,
    line: /^dbprobe: .*(dbprobe\.json|config)/,
    todo: 'Keep dbprobe.json to targets and settings; it is read whole before the run.',
  },
  {
    id: 'config.huge-name',
    area: 'config',
    input: 'a target name 50 MB long',
    setup: 'dbprobe.json with one 50 MB name; must answer within 10 s',
    exit: 2,
    line: /^dbprobe: .*(name|too large|over|the limit is)/,
    todo: 'Names are 1-64 characters.',
  },
  {
    id: 'config.over-sample-cap',
    area: 'config',
    input: 'far more samples than `sampleCap` keeps',
    setup: 'pg, 300 subsequent samples, sampleCap 5, --format json',
    exit: 0,
    line: /^$/,
    todo: 'Nothing to fix: statistics count every sample; the JSON/CSV keep the first sampleCap raw samples and say how many were dropped.',
  },
];

function connectionRows(): BadInput[] {
  const rows: BadInput[] = [];
  for (const variant of VARIANT_IDS) {
    rows.push({
      id: `${variant}.malformed`,
      area: 'connection',
      variant,
      input: 'a malformed connection string',
      setup:
        variant === 'libsql-file' ? '`file:` with no path' : 'a URL that does not parse (`[bad` as host)',
      exit: 2,
      errorClass: 'config',
      line: configLine(
        variant,
        variant === 'libsql-file'
          ? 'the connection string names no database file; put its path after the scheme'
          : 'the connection string is not a valid URL; .*percent-encode',
      ),
      todo: 'Write the connection string in the form `dbprobe drivers` shows.',
    });
    rows.push({
      id: `${variant}.wrong-scheme`,
      area: 'connection',
      variant,
      input: "another driver's connection string (wrong scheme)",
      setup: variant === 'ioredis' || variant === 'upstash' ? 'a postgres:// URL' : 'a redis:// URL',
      exit: 2,
      errorClass: 'config',
      line: configLine(
        variant,
        `the connection string has "(postgres|redis):", but driver ${driverOf(variant)} expects`,
      ),
      todo: 'Pick the driver that matches the URL, or the URL the driver expects.',
    });
  }
  for (const variant of ['pg', 'mysql2', 'ioredis'] as const) {
    rows.push({
      id: `${variant}.password-unencoded`,
      area: 'connection',
      variant,
      input: 'a password with `@ : / % #`, not percent-encoded',
      setup: 'a user created for the test with password `p@ss:w/rd%#…`, written raw into the URL',
      exit: 2,
      errorClass: 'config',
      line: configLine(
        variant,
        'the password seems to hold an unencoded .*percent-encode the user name and password',
      ),
      todo: 'Percent-encode the password: `encodeURIComponent(password)`.',
    });
    rows.push({
      id: `${variant}.password-encoded`,
      area: 'connection',
      variant,
      input: 'a password with `@ : / % #`, percent-encoded',
      setup: 'the same user, the password through encodeURIComponent',
      exit: 0,
      line: /^$/,
      todo: 'Nothing: it works.',
    });
  }
  rows.push({
    id: 'libsql-file.missing-folder',
    area: 'connection',
    variant: 'libsql-file',
    input: '`file:` in a folder that does not exist',
    setup: 'file:/nonexistent-dbprobe/x.db',
    exit: 1,
    errorClass: 'config',
    line: failedLine('libsql-file', 'config', '.*Unable to open connection to local database', HINT.config),
    todo: 'Fix the path, or create the folder.',
  });
  return rows;
}

function networkRows(): BadInput[] {
  return NETWORK_FAULTS.flatMap((f) =>
    NETWORK_VARIANTS.map((variant): BadInput => {
      const { errorClass, message, exit = 1, lineClass } = f.expect(variant);
      const notTestable = f.notTestable?.(variant);
      return {
        id: `${variant}.${f.fault}`,
        area: 'network',
        variant,
        input: f.input,
        setup: f.setup,
        exit,
        ...(exit === 0 ? {} : { errorClass }),
        line:
          exit === 0
            ? /^$/
            : failedLine(
                variant,
                lineClass ?? errorClass,
                message,
                lineClass ? `${HINT.closed}|${HINT.timeout}` : HINT[errorClass],
              ),
        todo: f.todo,
        ...(notTestable ? { notTestable } : {}),
      };
    }),
  );
}

function midRunRows(): BadInput[] {
  return NETWORK_VARIANTS.map((variant) => ({
    id: `${variant}.reset-mid-run`,
    area: 'mid-run' as const,
    variant,
    input: 'a server that closes connections in the middle of a run',
    setup:
      'toxiproxy reset_peer (timeout 1500 ms: each connection is reset 1.5 s after it opened), subsequent samples',
    exit: 0 as const,
    errorClass: 'closed' as const,
    line: new RegExp(
      `^dbprobe: target "${quote(targetName(variant))}" \\(${quote(driverOf(variant))}\\) had \\d+ failed samples? \\[subsequent\\] beside \\d+ measured \\(the report keeps them\\): (closed|timeout): `,
    ),
    todo: 'The samples measured before the fault stay in the report; check the server logs and proxies for what closed the connection.',
  }));
}

const RUNNER_ROWS: BadInput[] = [
  {
    id: 'runner.unauthorized',
    area: 'runner',
    input: 'a wrong runner token (HTTP 401)',
    setup: 'the Node runner process with another DBPROBE_TOKEN',
    exit: 1,
    line: /^dbprobe: runner http:\/\/127\.0\.0\.1:\d+ answered 401: Missing or wrong bearer token: send Authorization: Bearer/,
    todo: 'Set DBPROBE_TOKEN to the token the runner was started with.',
  },
  {
    id: 'runner.missing-token',
    area: 'runner',
    input: '`--runner` without DBPROBE_TOKEN',
    setup: 'no DBPROBE_TOKEN in the environment',
    exit: 2,
    line: /^dbprobe: --runner needs the runner token: set the environment variable DBPROBE_TOKEN/,
    todo: 'Export DBPROBE_TOKEN with the token the runner was started with.',
  },
  {
    id: 'runner.unreachable',
    area: 'runner',
    input: 'a runner URL nothing listens on',
    setup: 'a closed 127.0.0.1 port',
    exit: 1,
    line: /^dbprobe: cannot reach runner http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED; check the URL and that the runner is up/,
    todo: 'Check the runner URL and that the runner is up.',
  },
  {
    id: 'runner.server-error',
    area: 'runner',
    input: 'a runner (or the proxy in front of it) answering 502 with an HTML page',
    setup: 'a small HTTP server on 127.0.0.1 answering 502 with a multi-line HTML body',
    exit: 1,
    line: /^dbprobe: runner http:\/\/127\.0\.0\.1:\d+ answered 502: <html> <head><title>502 Bad Gateway.*; check the runner is up and its logs$/,
    todo: 'Check that the runner is up and read its logs (or the proxy in front of it).',
  },
  {
    id: 'runner.not-ndjson',
    area: 'runner',
    input: 'a URL that answers 200 with something that is not a dbprobe stream',
    setup: 'a small HTTP server on 127.0.0.1 answering 200 text/html',
    exit: 1,
    line: /^dbprobe: runner http:\/\/127\.0\.0\.1:\d+ answered with something that is not a dbprobe NDJSON stream .*; check that --runner points at a dbprobe runner/,
    todo: 'Point --runner at a dbprobe runner (its /v1/health answers with its version).',
  },
  {
    id: 'runner.cut-mid-run',
    area: 'runner',
    input: 'the runner dies (or the network drops) in the middle of a run',
    setup: 'the Node runner process killed with SIGKILL once samples streamed',
    exit: 1,
    line: /^dbprobe: the connection to runner http:\/\/127\.0\.0\.1:\d+ broke before the run finished \(.*\); the report holds what arrived$/,
    todo: 'The report keeps the samples that arrived; check the runner (its logs, memory, platform time limit) and run again.',
  },
  {
    id: 'runner.bad-plan',
    area: 'runner',
    input: 'a plan the runner refuses (iterations 0), sent straight to its API',
    setup: 'POST /v1/runs to the Node runner process',
    exit: 2,
    line: /^400 bad_plan: The plan has problems: iterations: must be a whole number from 1 to 1000000 \(got 0\)$/,
    todo: 'Fix the plan as the message says (the CLI checks the same before sending).',
  },
  {
    id: 'runner.target-refused',
    area: 'runner',
    input: 'a target the runner cannot reach',
    setup: 'the Node runner process, its env pointing pg at a closed port',
    exit: 1,
    errorClass: 'refused',
    line: /^dbprobe: target "cat pg" \(pg\) failed \[initial\]: refused: connect ECONNREFUSED 127\.0\.0\.1:\d+\. Nothing accepted the connection/,
    todo: 'Check the host and port as the runner sees them (its network, not yours).',
  },
];

export const BAD_INPUTS: BadInput[] = [
  ...CONFIG_ROWS,
  ...connectionRows(),
  ...networkRows(),
  ...midRunRows(),
  ...RUNNER_ROWS,
  ...CLI_ROWS,
  ...EDGE_ROWS,
  ...HANG_UP_ROWS,
];

export function badInput(id: string): BadInput {
  const row = BAD_INPUTS.find((r) => r.id === id);
  if (!row) throw new Error(`no bad-input row ${id}`);
  return row;
}

export const NETWORK_FAULT_IDS = NETWORK_FAULTS.map((f) => f.fault);
