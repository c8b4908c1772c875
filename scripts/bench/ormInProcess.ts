/**
 * The engine and the plain loop in turns in one process, for an ORM layer's cost: PAIRS times, the
 * engine's `subsequent` run of the layer over raw pg (runPlan, the CLI's plan for that config: its
 * default count, connections and warm-up) and the plain loop of ormLoop.ts twice (as many clients, as
 * many rounds, busy between queries as long as the engine's samples were apart: walking memory, then
 * spinning), each taking each place in turn. Both read the same layer code in the same JIT state:
 * a layer's cost moves between fresh processes by more than the engine could add (on an AMD VM
 * drizzle's settled at ~15 or ~20 µs a query in one process or another, and a wrapper around the
 * loop's call moved it from 17 to 31 µs), so only in one process does "the engine times what the
 * loop times" have an answer to within a microsecond.
 *
 * Built like the shipped bundles (esbuild.js `bench-orm-in-process`) and run by
 * scripts/bench/verdict.ts, a process per call. Prints one line of JSON: `{ "engineUs": [...],
 * "loopUs": [...], "spinUs": [...], "engineP50s": [...], "loopP50s": [...] }`: the figures of each
 * turn (the median of the per-query differences, layer minus raw, as the tool's figure is: the
 * engine's, the memory-walking loop's, the spinning loop's) and the engine's and the memory-walking
 * loop's raw pg and layer p50s.
 *
 * Usage: node dist/bench/ormInProcess.js drizzle|kysely|prisma PAIRS (DBPROBE_TEST_PG_URL names the server).
 */
import * as path from 'node:path';
import { runPlan } from '../../src/core/engine';
import { validatePlan } from '../../src/core/validate/validatePlan';
import { createRegistry } from '../../src/drivers/registry';
import { layerOverheads } from '../../src/shared/judgement/layerOverhead';
import { pauseBetweenSamplesUs } from '../../src/shared/judgement/processPace';
import type { RunResult } from '../../src/shared/result';
import { TOOL } from '../../src/shared/version';
import { plainLoop, type GapWork, type Layer } from './ormLoop';
import { connectionsOf, samplesOf } from './runShape';

const ROOT = path.resolve(__dirname, '..', '..');
/** The loop's untimed pairs after the first: the process's code is warm by then (the engine's run and the first loop's). */
const LATER_WARMUP_PAIRS = 1_000;

interface EngineFigures {
  overheadUs: number;
  /** Raw pg's p50 and the layer's, µs. */
  rawUs: number;
  layeredUs: number;
  gapUs: number;
  connections: number;
  rounds: number;
}

async function engineRun(
  layer: Layer,
  url: string,
  registry: ReturnType<typeof createRegistry>,
): Promise<EngineFigures> {
  const plan = validatePlan(
    {
      targets: [{ name: 'pg', driver: 'pg', connection: 'env:DBPROBE_TEST_PG_URL', orm: layer }],
      kinds: ['subsequent'],
    },
    registry.ids(),
  );
  if (!plan.ok) throw new Error(JSON.stringify(plan.issues));
  const result = await runPlan(plan.value, {
    registry,
    resolveConnection: async () => url,
    tool: TOOL,
  });
  const overhead = layerOverheads(result).find((o) => o.kind === 'subsequent');
  if (!overhead) throw new Error(`${layer}: the engine's run gave no overhead (${errorsOf(result)})`);
  const p50 = (name: string) => result.measurements.find((m) => m.target === name)?.stats.p50Us ?? 0;
  return {
    overheadUs: overhead.overheadUs,
    rawUs: p50('pg'),
    layeredUs: p50(overhead.target),
    gapUs: pauseBetweenSamplesUs(result) ?? 0,
    connections: connectionsOf(result),
    rounds: samplesOf(result, 'pg'),
  };
}

function errorsOf(result: RunResult): string {
  return result.measurements.map((m) => `${m.target}: ${JSON.stringify(m.firstErrors)}`).join('; ');
}

async function main(): Promise<void> {
  const [layer, pairsText] = process.argv.slice(2);
  if (layer !== 'drizzle' && layer !== 'kysely' && layer !== 'prisma')
    throw new Error('usage: ormInProcess.js drizzle|kysely|prisma PAIRS');
  const url = process.env.DBPROBE_TEST_PG_URL;
  if (!url) throw new Error('DBPROBE_TEST_PG_URL names the server');
  const pairs = Math.max(1, Math.min(20, Number(pairsText) || 3));
  const registry = createRegistry(undefined, { projectDirs: [ROOT], projectLabel: 'the repository' });
  // Untimed: the first engine run loads the driver and the layer; its pace sets the loop's.
  let last = await engineRun(layer, url, registry);
  const engineUs: number[] = [];
  /** The loop's figures, walking memory between queries and spinning (ormLoop.ts GapWork). */
  const loopUs: number[] = [];
  const spinUs: number[] = [];
  /** Each side's raw pg and layer p50s per pair, µs. */
  const engineP50s: [number, number][] = [];
  const loopP50s: [number, number][] = [];
  for (let i = 0; i < pairs; i++) {
    const loop = (work: GapWork, into: number[]) => async () => {
      // The first loop of the process warms up as a fresh process's does; later ones need less.
      const warmup = i === 0 && work === 'touch' ? undefined : LATER_WARMUP_PAIRS;
      const figures = await plainLoop(layer, last.connections, last.gapUs, last.rounds, url, warmup, work);
      into.push(figures.overheadUs);
      if (work === 'touch') loopP50s.push([figures.rawUs, figures.layeredUs]);
    };
    const engine = async () => {
      last = await engineRun(layer, url, registry);
      engineUs.push(last.overheadUs);
      engineP50s.push([last.rawUs, last.layeredUs]);
    };
    const sides = [engine, loop('touch', loopUs), loop('spin', spinUs)];
    // Each side takes each place in turn, so none always follows another.
    for (let k = 0; k < sides.length; k++) await sides[(i + k) % sides.length]!();
  }
  console.log(JSON.stringify({ engineUs, loopUs, spinUs, engineP50s, loopP50s }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
