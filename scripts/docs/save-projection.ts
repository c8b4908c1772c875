/**
 * Saves the figures test/integration/projection.test.ts printed (`projection figures: {...}`, one
 * line per driver and kind) from a saved test output to bench-results/projection.json, with the
 * machine, so docs/measuring.md shows the check's figures from a run rather than by hand.
 * Usage: node --import tsx scripts/docs/save-projection.ts <saved output> [--command "<what ran>"]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { machineFacts } from '../bench/machine';
import type { ProjectionResult, ProjectionRow } from './render';

const LINE = /^\s*projection figures: (\{.*\})\s*$/;

/** Every `projection figures: {...}` row of `text`, in the order printed; a later one for the same driver and kind replaces it. */
export function projectionRows(text: string): ProjectionRow[] {
  const rows = new Map<string, ProjectionRow>();
  for (const line of text.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const row = JSON.parse(match[1]!) as ProjectionRow;
    rows.set(`${row.driver} ${row.kind}`, row);
  }
  return [...rows.values()];
}

function main(): void {
  const args = process.argv.slice(2);
  const at = args.indexOf('--command');
  const command =
    at === -1
      ? 'node --import tsx --test test/integration/projection.test.ts'
      : (args.splice(at, 2)[1] ?? '');
  if (args.length !== 1) throw new Error('name the one saved test output to read');
  const rows = projectionRows(readFileSync(args[0]!, 'utf8'));
  if (rows.length === 0) throw new Error(`no "projection figures:" line in ${args[0]}`);
  const result: ProjectionResult = {
    kind: 'projection',
    date: new Date().toISOString(),
    command,
    machine: machineFacts(),
    rows,
  };
  const file = path.join(__dirname, '..', '..', 'bench-results', 'projection.json');
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${file}: ${rows.length} rows`);
}

if (require.main === module) main();
