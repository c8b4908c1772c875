/**
 * Which test files may run at the same time as others (scripts/test/runFiles.ts). A file is
 * - `shared`: runs beside other shared files of its phase;
 * - `timed`: asserts on the real clock (timer lateness, elapsed bounds) against in-memory fakes and
 *   mostly waits on timers: runs beside other timed files only, never beside CPU-bound work;
 * - `waits`: spends its time waiting on timeouts and judges lines or lower bounds, not latencies,
 *   and counts no connections on a shared server: runs beside the shared files, WAITS_WIDTH at a
 *   time (integration only);
 * - `alone`: nothing else runs meanwhile.
 * Unit and CLI files are pure by design (fake clocks, fake drivers, child processes on ports of
 * their own), so they share unless listed here; integration and end-to-end files count server
 * connections, time latencies, drive toxiproxy proxies and time the editor, so they run alone
 * unless listed shared here (end-to-end files only as `shared` or `alone`). A new integration file
 * is therefore safe by default; a new unit or CLI file that asserts on a real clock, saturates the
 * CPU or writes shared files must be listed.
 */
import { availableParallelism } from 'node:os';
import * as path from 'node:path';

export type Group = 'shared' | 'waits' | 'timed' | 'alone';

const UNIT_ALONE = new Set<string>([
  // Loads the dist/ bundles, and sets DBPROBE_TOKEN and region variables in process.env.
  'runner-entries.test.ts',
]);

const UNIT_TIMED = new Set<string>([
  // Three places start a level within 50 ms of a common start, on timers.
  'load-fan-out.test.ts',
  // A driver that takes real time: query p50 under 40 ms, start lateness p50 under 5 ms.
  'load-kinds.test.ts',
  // Reads its own event loop's busy share over 60 ms of waiting: in a batch, another file's work on
  // the same loop made the wait read busy (seen in a fresh-clone run at load average 23).
  'load-level-busy.test.ts',
]);

const CLI_ALONE = new Set<string>([
  // Asserts the CLI exits within 1.5 s of a signal, during a libSQL run that keeps a core busy.
  'run-limits.test.ts',
  // Drives an open-model level at 100,000/s for 6 s: both cores busy, neighbours would starve.
  'open-model-figures.test.ts',
  // Load at 256 connections on the testbed PostgreSQL, past its max_connections (200), and a cold
  // run through the testbed's pgcold: any other file using either would be refused or find it cold.
  'process-warnings.test.ts',
  // A cold run through the testbed's pgcold.
  'thresholds-kinds.test.ts',
]);

/**
 * Integration files that neither count server connections nor assert on latencies or elapsed time,
 * use no fixed server-side names, and rebuild nothing another file reads; they run two at a time.
 * (package-cli, package-libsql and package-vsix stay alone: the first packs packages/cli, which
 * action.test.ts rebuilds; the others may rebuild dist/ through `npm run package`.)
 */
const INTEGRATION_SHARED = new Set<string>([
  // The GitHub Action's steps: npm install from the registry, thresholds of 60 s or 0.001 ms.
  'action.test.ts',
  // Config and connection-string rows: exit code and one line, before or without a connection.
  'bad-inputs-config.test.ts',
  // A refused port, a wrong password, a bad query: the line each prints.
  'cli-errors.test.ts',
  // Outputs scanned for secrets; stand-ins that echo them.
  'secrets-leak.test.ts',
  'drivers-redaction.test.ts',
  // One report's table shape and sample counts (10 s query timeouts), no latency compared.
  'drivers-report.test.ts',
  // Connections counted on a stand-in or a counting pass-through of the file's own (a port of its
  // own), or sessions in a scratch database of its own; sample counts and error classes, no time.
  'drivers-firestore.test.ts',
  'drivers-libsql-remote.test.ts',
  'drivers-mongodb.test.ts',
  'drivers-neon.test.ts',
  'drivers-planetscale.test.ts',
  'drivers-rest.test.ts',
  // A redirect to another origin is refused: one line, servers of its own on port 0.
  'drivers-redirect.test.ts',
  // Catalogue rows: one line each, against a runner process and HTTP servers of its own.
  'bad-inputs-runner.test.ts',
  // A role named for this file alone (cat_special), created and dropped by it: exit code and a line.
  'bad-inputs-passwords.test.ts',
  // Load edges against the testbed PostgreSQL: every figure checked against the same run's --raw
  // lines (counts, not times), a runner process of its own. Beside the waiting files, whose minute
  // of timeouts it overlaps (it was 24 s of the alone files' time).
  'load-edges.test.ts',
  // A watch's heap and RSS over 600 runs: memory, not time (split from watch-prometheus, which
  // runs alone for its quantiles).
  'watch-memory.test.ts',
  // One short watch scraped once and its text handed to promtool: health states and a linter's
  // verdict, no time or connection counted.
  'watch-promtool.test.ts',
  // Short runs exported through a gate of its own (port 0) to the shared collector under service
  // names of its own; content types and metric names, no time.
  'otlp-protobuf.test.ts',
]);

/**
 * Integration files that mostly wait and judge coarsely (see `waits` above). They start with the
 * shared files, so the slow waits overlap instead of adding up; none of them runs beside a file that
 * counts connections or times latencies finely.
 */
const INTEGRATION_WAITS = new Set<string>([
  // Every failing network case again, only to scan its outputs for secrets: a minute of timeouts.
  'bad-inputs-leaks.test.ts',
  // The network rows of the catalogue: refused ports, SYN drops and toxiproxy faults against
  // servers of its own; timeouts of seconds, each row's line checked, not its time.
  'bad-inputs-network.test.ts',
  // Connects that hang on a port of its own until a driver's timer fires: lower bounds only.
  'driver-timers.test.ts',
]);
// Tried here and left alone, though they mostly wait: wire-round-trips.test.ts (its cases four at a
// time beside these files, a third of the turns it derives from toxiproxy's delay were one off:
// plain p50s of 15-80 ms where a quiet machine gives 2) and watch-prometheus.test.ts (Prometheus's
// quantile and the watch's own p50 two buckets apart on the loaded host).

/**
 * End-to-end files that time nothing and count no server sessions: each checks what its workbench
 * shows against what its own run saved (footers, cards, projections, a runner's places), in a
 * code-server, user-data folder and workspace of its own. Two of them at a time. Left alone: the
 * files that time the editor (extension, panel, responsive, cold, vs-cli) and extension-codelens,
 * whose heartbeat counts every client session on the testbed PostgreSQL.
 */
const E2E_SHARED = new Set<string>([
  'extension-driver-version.test.ts',
  'extension-projection.test.ts',
  'extension-runner.test.ts',
  'extension-verdict.test.ts',
]);

/** How many waiting files run at once, beside the shared ones: they are mostly idle. */
export const WAITS_WIDTH = 2;

export function groupOf(phase: string, file: string): Group {
  const name = path.basename(file);
  if (phase === 'unit') return UNIT_ALONE.has(name) ? 'alone' : UNIT_TIMED.has(name) ? 'timed' : 'shared';
  if (phase === 'cli') return CLI_ALONE.has(name) ? 'alone' : 'shared';
  if (phase === 'integration')
    return INTEGRATION_SHARED.has(name) ? 'shared' : INTEGRATION_WAITS.has(name) ? 'waits' : 'alone';
  if (phase === 'e2e') return E2E_SHARED.has(name) ? 'shared' : 'alone';
  return 'alone';
}

/**
 * Unit files run in batches, several files to a process: their tests take milliseconds, and a
 * process per file spent more time starting Node and tsx than testing.
 */
export function batchedPhase(phase: string): boolean {
  return phase === 'unit';
}

/** How many shared files (or batches) run at once by default: one per core, at least 2. */
export function phaseJobs(phase: string): number {
  const cores = Math.max(2, availableParallelism());
  return phase === 'unit' ? cores : Math.min(cores, 3);
}
