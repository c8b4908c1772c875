/**
 * What the editor adds to a figure: the same dbprobe.json (the testbed's PostgreSQL and Redis,
 * `subsequent`, 3,000 samples a target) probed from a real VS Code's palette and from the CLI,
 * interleaved, in rounds (test/e2e/editorVsCli.ts drives both). Each round is a palette run and the
 * CLI run after it; the CLI side of a round is the mean of the CLI runs just before and after its
 * palette run, so a slow drift of the machine's load hits both sides alike. Prints, each with its 95%
 * interval over rounds (scripts/bench/rounds.ts): `editor_vs_cli_p50` (panel p50 / CLI p50, the two
 * targets' figures summed), `editor_vs_cli_p99`, and `editor_added_p50_us` (panel minus CLI, µs, the
 * mean over rounds and targets); writes bench-results/editor.json.
 *
 * Needs the end-to-end set-up (code-server, Chromium: `eval "$(bash scripts/e2e/setup.sh)"`, which
 * the session also runs itself when it is missing) and the testbed's pg and redis (started if needed).
 */
import { measureInRounds } from './rounds';
import {
  PERCENTILES,
  PaletteProbe,
  TARGETS,
  figuresOf,
  openVsCliSession,
  probeFromCli,
  type Figures,
  type Percentile,
} from '../../test/e2e/editorVsCli';

interface EditorRound {
  panel: Figures;
  /** Mean of the CLI runs just before and after the palette run, per target and percentile. */
  cli: Record<(typeof TARGETS)[number], Record<Percentile, number>>;
}

const sum = (rounds: readonly EditorRound[], side: 'panel' | 'cli', stat: Percentile): number =>
  rounds.reduce((total, r) => total + TARGETS.reduce((t, target) => t + r[side][target][stat], 0), 0);

async function main(): Promise<void> {
  const figures: Record<string, string | number> = {};
  const session = await openVsCliSession(figures);
  try {
    const palette = new PaletteProbe(session);
    let cliBefore = probeFromCli(session.workspace).figures;
    await measureInRounds<EditorRound>({
      bench: 'editor',
      command: 'npm run bench:editor',
      minRounds: 8,
      maxRounds: 40,
      timeCapS: 600,
      checkEvery: 4,
      // Two processes' percentiles of ~100 µs round trips: 2% is what rounds can settle here.
      tolerance: 0.02,
      round: async (index) => {
        const { saved } = await palette.run();
        const cliAfter = probeFromCli(session.workspace).figures;
        const panel = figuresOf(saved, 'the editor');
        const cli = Object.fromEntries(
          TARGETS.map((target) => [
            target,
            Object.fromEntries(
              PERCENTILES.map((stat) => [stat, (cliBefore[target][stat] + cliAfter[target][stat]) / 2]),
            ),
          ]),
        ) as EditorRound['cli'];
        cliBefore = cliAfter;
        console.log(
          `round ${index + 1}: ${TARGETS.map((t) => `${t} p50 panel ${panel[t].p50} / CLI ${cli[t].p50} us, p99 ${panel[t].p99} / ${cli[t].p99} us`).join('; ')}`,
        );
        return { panel, cli };
      },
      figures: [
        {
          name: 'editor_vs_cli_p50',
          about: 'panel p50 / CLI p50 (pg and redis subsequent, 3,000 samples each), interleaved rounds',
          value: (rounds) => sum(rounds, 'panel', 'p50') / sum(rounds, 'cli', 'p50'),
        },
        {
          name: 'editor_vs_cli_p99',
          about: 'panel p99 / CLI p99',
          value: (rounds) => sum(rounds, 'panel', 'p99') / sum(rounds, 'cli', 'p99'),
        },
        {
          name: 'editor_added_p50_us',
          unit: 'µs',
          about: 'panel p50 minus CLI p50, mean over rounds and targets',
          value: (rounds) =>
            (sum(rounds, 'panel', 'p50') - sum(rounds, 'cli', 'p50')) / (rounds.length * TARGETS.length),
        },
      ],
      context: (rounds) => ({
        cli_p50_us: (sum(rounds, 'cli', 'p50') / (rounds.length * TARGETS.length)).toFixed(1),
        panel_p50_us: (sum(rounds, 'panel', 'p50') / (rounds.length * TARGETS.length)).toFixed(1),
      }),
    });
  } finally {
    await session.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
