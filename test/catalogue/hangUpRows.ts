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
];

export const HANG_UP_ROWS: BadInput[] = ROWS.map((row) => ({ ...row, area: 'hang-ups' as const }));
