/**
 * One analysis wing: every verdict (a ranking, a difference, a change, an overtake, a crossover, a
 * threshold, the heartbeat's level) is decided in src/shared/judgement/, and every surface states
 * what it decided. So no module elsewhere in src/ may write a verdict word in its own text, or sort
 * targets by a figure: either would be a second judgement beside the first. Comments may name the
 * words (they explain, they are not printed); strings and templates may not.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { filesUnder } from '../helpers/sourceFiles';

const SRC = path.join(__dirname, '..', '..', 'src');
const WING = path.join(SRC, 'shared', 'judgement');
const VERDICT_WORDS = /\b(faster|slower|regressed|improved|wins|tied)\b/i;
/** A comparator that orders by a latency figure (p50Us, meanUs, ...). */
const SORT_BY_FIGURE =
  /\.sort\(\s*\(?\s*\w+\s*,\s*\w+\s*\)?\s*=>[^;]*?\b\w+\.(p50|p90|p95|p99|p999|mean|max|min)Us\b/s;

/** The file's string and template literals (comments dropped), with the line each starts on. */
export function literals(text: string): { line: number; value: string }[] {
  const found: { line: number; value: string }[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') line += 1;
    else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      line += 1;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      line += text.slice(i, stop).split('\n').length - 1;
      i = stop - 1;
    } else if (c === "'" || c === '"' || c === '`') {
      const start = line;
      let value = '';
      let j = i + 1;
      for (; j < text.length && text[j] !== c; j++) {
        if (text[j] === '\\') {
          value += text[j + 1] ?? '';
          j++;
          continue;
        }
        if (c === '`' && text[j] === '$' && text[j + 1] === '{') {
          // An expression inside a template is code: its own literals count, its names do not.
          let depth = 1;
          let k = j + 2;
          for (; k < text.length && depth > 0; k++) depth += text[k] === '{' ? 1 : text[k] === '}' ? -1 : 0;
          const inner = text.slice(j + 2, k - 1);
          for (const nested of literals(inner))
            found.push({ line: line + nested.line - 1, value: nested.value });
          line += inner.split('\n').length - 1;
          value += '${}';
          j = k - 1;
          continue;
        }
        if (text[j] === '\n') line += 1;
        value += text[j];
      }
      found.push({ line: start, value });
      i = j;
    }
  }
  return found;
}

test('the literal reader skips comments and finds strings and templates', () => {
  const text = "// faster\nconst a = 'tied';\n/* regressed */ const b = `x ${y ? 'improved' : z} wins`;";
  assert.deepEqual(
    literals(text).map((l) => `${l.line}:${l.value}`),
    ['2:tied', '3:improved', '3:x ${} wins'],
  );
});

test('no module outside src/shared/judgement/ writes a verdict word or sorts targets by a figure', () => {
  const offences: string[] = [];
  for (const file of filesUnder(SRC, /\.ts$/, (folder) => folder === WING)) {
    const text = readFileSync(file, 'utf8');
    const where = path.relative(SRC, file);
    for (const { line, value } of literals(text))
      if (VERDICT_WORDS.test(value)) offences.push(`${where}:${line}: writes "${value.slice(0, 80)}"`);
    const sorted = SORT_BY_FIGURE.exec(text);
    if (sorted) offences.push(`${where}: sorts by a figure: ${sorted[0].slice(0, 80)}`);
  }
  assert.deepEqual(offences, []);
});
