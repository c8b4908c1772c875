/**
 * Result files for the benches measured once rather than in rounds (bench:memory, bench:soak): their
 * `name=value` figures, the machine, Node, load averages and date, in the shape rounds.ts writes
 * (`bench-results/<bench>.json`, the run before kept as `<bench>.previous.json`), so
 * `npm run docs:figures` renders them too. One run has no interval: each figure says so (`single`),
 * and its interval is the value itself.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadAverage, machineFacts } from './machine';
import type { BenchFigure, BenchResult } from './result';

/** `name=value` lines with a numeric value, in order (a name seen twice keeps its last value). */
export function parseFigureLines(text: string): { name: string; value: number }[] {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-z][a-z0-9_]*)=(-?\d+(?:\.\d+)?)\s*$/.exec(line.trim());
    if (match) found.set(match[1]!, Number(match[2]));
  }
  return [...found].map(([name, value]) => ({ name, value }));
}

/** The unit a figure's name ends in. */
export function unitOf(name: string): string {
  if (name.endsWith('_mb')) return 'MB';
  if (name.endsWith('_bytes')) return 'bytes';
  if (name.endsWith('_us')) return 'µs';
  return 'count';
}

export interface SingleRunOptions {
  bench: string;
  command: string;
  startedAtMs: number;
  loadAverageStart: number[];
  figures: { name: string; value: number; about?: string }[];
  context?: Record<string, string | number>;
  outDir?: string;
}

export function writeSingleRun(options: SingleRunOptions): string {
  const figures: BenchFigure[] = options.figures.map((f) => ({
    name: f.name,
    unit: unitOf(f.name),
    about: f.about ?? '',
    value: f.value,
    low: f.value,
    high: f.value,
    settled: false,
    single: true,
  }));
  const result: BenchResult = {
    bench: options.bench,
    command: options.command,
    date: new Date().toISOString(),
    seconds: Math.round((Date.now() - options.startedAtMs) / 100) / 10,
    rounds: 1,
    stoppedBy: 'round cap',
    tolerance: 0,
    confidence: 0.95,
    machine: {
      hostname: os.hostname(),
      ...machineFacts(),
      loadAverageStart: options.loadAverageStart,
      loadAverage: loadAverage(),
    },
    figures,
    context: options.context ?? {},
  };
  const dir = options.outDir ?? path.join(process.cwd(), 'bench-results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${options.bench}.json`);
  if (existsSync(file)) renameSync(file, path.join(dir, `${options.bench}.previous.json`));
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}
