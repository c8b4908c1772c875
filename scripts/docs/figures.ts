/**
 * `npm run docs:figures`: regenerates the figures blocks of docs/benchmarks.md and docs/measuring.md
 * from the result files in bench-results/ (see scripts/docs/render.ts). `--check` changes nothing
 * and fails when a block is not what the files give.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as prettier from 'prettier';
import { renderFigures, renderProjection, replaceBlock, type ResultFile } from './render';

export const RESULTS_DIR = 'bench-results';
/** Each doc with a figures block, and what renders it. */
const BLOCKS: Record<string, (files: readonly ResultFile[]) => string> = {
  'docs/benchmarks.md': renderFigures,
  'docs/measuring.md': renderProjection,
};
export const FIGURES_DOCS = Object.keys(BLOCKS);

/** Every result file, by name, parsed; a bench's `<bench>.previous.json` rides along as its `previous`. */
export function readResults(root: string): ResultFile[] {
  const dir = path.join(root, RESULTS_DIR);
  const read = (name: string) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as ResultFile;
  const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  return names
    .filter((name) => !name.endsWith('.previous.json'))
    .sort()
    .map((name) => {
      const file = read(name);
      const previous = name.replace(/\.json$/, '.previous.json');
      if (!('bench' in file) || !names.includes(previous)) return file;
      const before = read(previous);
      return 'bench' in before ? { ...file, previous: before } : file;
    });
}

/** `doc` as it should be: its block from the result files, formatted as `npm run format` would. */
export async function regenerated(root: string, doc: string): Promise<string> {
  const file = path.join(root, doc);
  const render = BLOCKS[doc];
  if (!render) throw new Error(`${doc} has no figures block: it is not one of ${FIGURES_DOCS.join(', ')}`);
  const text = replaceBlock(readFileSync(file, 'utf8'), render(readResults(root)), doc);
  const options = await prettier.resolveConfig(file);
  return prettier.format(text, { ...options, filepath: file });
}

async function main(): Promise<void> {
  const root = path.join(__dirname, '..', '..');
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const doc of FIGURES_DOCS) {
    const file = path.join(root, doc);
    const text = readFileSync(file, 'utf8');
    const next = await regenerated(root, doc);
    if (next === text) continue;
    stale += 1;
    if (check)
      console.error(`${doc}: its figures are not what ${RESULTS_DIR}/ gives; run npm run docs:figures`);
    else {
      writeFileSync(file, next);
      console.log(`${doc}: figures regenerated`);
    }
  }
  if (check && stale > 0) process.exit(1);
  if (stale === 0) console.log('figures up to date');
}

if (require.main === module)
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
