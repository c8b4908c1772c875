/**
 * Saves the figures the end-to-end tests printed (`e2e figures: {...}`, `e2e panel figures: {...}`)
 * from a saved test output to bench-results/e2e.json, with the machine, so docs/benchmarks.md can
 * quote activation and first-paint figures from a run rather than by hand.
 * Usage: node --import tsx scripts/docs/save-e2e.ts <saved output>... [--command "<what ran>"] [--keep]
 * --keep keeps the figures of test files not in these outputs from bench-results/e2e.json, and says so.
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

/**
 * With --keep: the figures of `previous` whose label the new outputs do not have, and the words that
 * say where they come from (the command names both runs, so no figure passes for another run's).
 */
export function keptFigures(
  previous: E2eResult,
  fresh: E2eResult['figures'],
): { figures: E2eResult['figures']; note: string } {
  const kept = Object.fromEntries(Object.entries(previous.figures).filter(([label]) => !(label in fresh)));
  const labels = Object.keys(kept);
  return {
    figures: kept,
    note:
      labels.length === 0
        ? ''
        : `; ${labels.join(', ')} kept from the ${previous.date.slice(0, 16).replace('T', ' ')} UTC run (${previous.command})`,
  };
}

function main(): void {
  const args = process.argv.slice(2);
  const at = args.indexOf('--command');
  let command = at === -1 ? 'npm run test:e2e' : (args.splice(at, 2)[1] ?? '');
  const keep = args.indexOf('--keep');
  if (keep !== -1) args.splice(keep, 1);
  if (args.length === 0) throw new Error('name the saved test output(s) to read');
  let figures = Object.assign({}, ...args.map((file) => e2eFigures(readFileSync(file, 'utf8'))));
  if (Object.keys(figures).length === 0) throw new Error(`no "e2e ... figures:" line in ${args.join(', ')}`);
  const file = path.join(__dirname, '..', '..', 'bench-results', 'e2e.json');
  if (keep !== -1) {
    const previous = JSON.parse(readFileSync(file, 'utf8')) as E2eResult;
    const kept = keptFigures(previous, figures);
    figures = { ...figures, ...kept.figures };
    command += kept.note;
  }
  const result: E2eResult = {
    kind: 'e2e',
    date: new Date().toISOString(),
    command,
    machine: machineFacts(),
    figures,
  };
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${file}: ${Object.keys(figures).join(', ')}`);
}

if (require.main === module) main();
