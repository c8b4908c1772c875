/**
 * Runs several unit test files in this one process (scripts/test/runFiles.ts starts one per core):
 * each file's tests inside a suite named for the file, so the spec output says which file a test
 * is from and a file's top-level hooks stay within its own tests. One process per batch instead of
 * one per file: starting Node, tsx and the shared sources 70 times cost more than the tests did.
 * Writes each file's seconds to the JSON file named by DBPROBE_BATCH_TIMES, when set.
 * Usage: node --import tsx --test-reporter=spec scripts/test/batch.ts FILE...
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe } from 'node:test';

const root = path.join(__dirname, '..', '..');
const seconds: Record<string, number> = {};

for (const file of process.argv.slice(2)) {
  const name = path.relative(root, path.resolve(file));
  describe(name, () => {
    let started = 0;
    before(() => {
      started = performance.now();
    });
    after(() => {
      seconds[name] = (performance.now() - started) / 1000;
    });
    // Synchronous (an import() would resolve after the suite closed): the file's test() calls
    // register inside this suite.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(path.resolve(file));
  });
}

const out = process.env.DBPROBE_BATCH_TIMES;
if (out) process.on('exit', () => fs.writeFileSync(out, JSON.stringify(seconds)));
