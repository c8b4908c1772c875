/**
 * Saves the figures the end-to-end tests printed (`e2e figures: {...}`, `e2e panel figures: {...}`)
 * from a saved test output to bench-results/e2e.json, with the machine, so docs/benchmarks.md can
 * quote activation and first-paint figures from a run rather than by hand.
 * Usage: node --import tsx scripts/docs/save-e2e.ts <saved output>... [--command "<what ran>"]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { machineFacts } from '../bench/machine';
import type { E2eResult } from './render';

const LINE = /^\s*(e2e(?: [\w -]+?)? figures): (\{.*\})\s*$/;

/** Every `e2e ... figures: {...}` line of `text`, by its label; a later line replaces an earlier one. */
export function e2eFigures(text: string): E2eResult['figures'] {
  const figures: E2eResult['figures'] = {};
  for (const line of text.split('\n')) {
    const match = LINE.exec(line);
    if (match) figures[match[1]!] = JSON.parse(match[2]!) as Record<string, unknown>;
  }
  return figures;
}

function main(): void {
  const args = process.argv.slice(2);
  const at = args.indexOf('--command');
  const command = at === -1 ? 'npm run test:e2e' : (args.splice(at, 2)[1] ?? '');
  if (args.length === 0) throw new Error('name the saved test output(s) to read');
  const figures = Object.assign({}, ...args.map((file) => e2eFigures(readFileSync(file, 'utf8'))));
  if (Object.keys(figures).length === 0) throw new Error(`no "e2e ... figures:" line in ${args.join(', ')}`);
  const result: E2eResult = {
    kind: 'e2e',
    date: new Date().toISOString(),
    command,
    machine: machineFacts(),
    figures,
  };
  const file = path.join(__dirname, '..', '..', 'bench-results', 'e2e.json');
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${file}: ${Object.keys(figures).join(', ')}`);
}

if (require.main === module) main();
