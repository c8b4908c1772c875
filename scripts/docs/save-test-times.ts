/**
 * Writes one `npm test`'s phase times to bench-results/npm-test.json (scripts/test.sh calls it when
 * DBPROBE_RECORD_TIMES=1), with the machine, for docs/benchmarks.md.
 * Usage: save-test-times.ts <fresh: true|false> left-out=<files>/<of> <phase>=<nanoseconds>... (the
 * last one `total`). A run that left out files unchanged since they passed (scripts/test/passes.ts)
 * is a repeat: it goes to npm-test-repeat.json, beside the last full run's npm-test.json.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadAverage, machineFacts } from '../bench/machine';
import type { TestTimesResult } from './render';

function main(): void {
  const [fresh, leftOutArg = '', ...pairs] = process.argv.slice(2);
  const [files = NaN, of = NaN] = leftOutArg
    .replace(/^left-out=/, '')
    .split('/')
    .map(Number);
  if (!leftOutArg.startsWith('left-out=') || !Number.isInteger(files) || !Number.isInteger(of))
    throw new Error(`not a left-out count: ${leftOutArg}`);
  const phases = pairs.map((pair) => {
    const [name = '', ns = ''] = pair.split('=');
    const seconds = Number(ns) / 1e9;
    if (!name || !Number.isFinite(seconds)) throw new Error(`not a phase time: ${pair}`);
    return { name, seconds: Math.round(seconds * 10) / 10 };
  });
  const total = phases.find((p) => p.name === 'total');
  if (!total) throw new Error('no total among the phase times');
  const result: TestTimesResult = {
    kind: 'npm-test',
    date: new Date().toISOString(),
    command: 'npm test',
    machine: { ...machineFacts(), loadAverage: loadAverage() },
    fresh: fresh === 'true',
    phases: phases.filter((p) => p !== total),
    totalSeconds: total.seconds,
    ...(files > 0 ? { leftOut: { files, of } } : {}),
  };
  const name = files > 0 ? 'npm-test-repeat.json' : 'npm-test.json';
  const file = path.join(__dirname, '..', '..', 'bench-results', name);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

main();
