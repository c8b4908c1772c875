/**
 * Placeholders in a SQL statement ($1, ?, :name) and how sample values fill them. A probe sends plain
 * text (the engine's workload has no bind values), so each placeholder becomes a SQL literal: numbers,
 * true/false/null as they are, anything else single-quoted with quotes doubled. The filled text is
 * classified again before it runs, so a value can never turn a read into an unconfirmed write.
 */
import { isWordChar, sqlSegments } from '../../shared/sqlText';

export interface SqlParameter {
  /** `$1`, `?1` (the first `?`), `:name`. */
  name: string;
  start: number;
  end: number;
  /** A template's ${...} inside a SQL string ('%${q}%'): filled without quotes of its own. */
  inString?: boolean;
}

/** Every placeholder occurrence in code (not in strings or comments), in text order. */
export function findSqlParameters(text: string): SqlParameter[] {
  const found: SqlParameter[] = [];
  let questions = 0;
  for (const segment of sqlSegments(text)) {
    if (segment.kind !== 'code') continue;
    for (let i = segment.start; i < segment.end; i++) {
      const ch = text[i];
      const before = text.charCodeAt(i - 1);
      if (ch === '$' && !isWordChar(before)) {
        const end = digitsEnd(text, i + 1, segment.end);
        if (end > i + 1) {
          found.push({ name: text.slice(i, end), start: i, end });
          i = end - 1;
        }
      } else if (ch === ':' && text[i - 1] !== ':' && text[i + 1] !== ':' && text[i + 1] !== '=') {
        // `::int` is a cast and `:=` an assignment; `:name` needs a letter right after the colon.
        const end = nameEnd(text, i + 1, segment.end);
        if (end > i + 1 && !isDigitAt(text, i + 1)) {
          found.push({ name: text.slice(i, end), start: i, end });
          i = end - 1;
        }
      } else if (ch === '?' && !isJsonOperator(text, i)) {
        questions++;
        found.push({ name: `?${questions}`, start: i, end: i + 1 });
      }
    }
  }
  // With $n placeholders (PostgreSQL), a `?` is the jsonb key-exists operator.
  return found.some((p) => p.name.startsWith('$')) ? found.filter((p) => !p.name.startsWith('?')) : found;
}

/** The distinct names, in the order they first appear: what the user is asked for. */
export function parameterNames(parameters: readonly SqlParameter[]): string[] {
  return [...new Set(parameters.map((p) => p.name))];
}

export type FillOutcome = { ok: true; text: string } | { ok: false; problem: string };

/** Replaces each placeholder with its value as a SQL literal; every name must have a value. */
export function fillSqlParameters(
  text: string,
  parameters: readonly SqlParameter[],
  values: Readonly<Record<string, string>>,
): FillOutcome {
  let out = '';
  let from = 0;
  for (const p of [...parameters].sort((a, b) => a.start - b.start)) {
    const value = values[p.name];
    if (value === undefined) return { ok: false, problem: `no value for ${p.name}` };
    const literal = sqlLiteral(value);
    if (!literal.ok) return { ok: false, problem: `${p.name}: ${literal.problem}` };
    out += text.slice(from, p.start) + (p.inString ? value.replaceAll("'", "''") : literal.text);
    from = p.end;
  }
  return { ok: true, text: out + text.slice(from) };
}

const NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?$/;
const MAX_VALUE_CHARS = 4096;

export function sqlLiteral(value: string): FillOutcome {
  if (value.length > MAX_VALUE_CHARS)
    return { ok: false, problem: `a sample value is at most ${MAX_VALUE_CHARS} characters` };
  // MySQL reads a backslash as an escape inside quotes, PostgreSQL does not: no single quoting works for both.
  if (value.includes('\\') || value.includes('\0'))
    return { ok: false, problem: 'a sample value cannot hold a backslash or a NUL character' };
  const trimmed = value.trim();
  if (NUMBER.test(trimmed)) return { ok: true, text: trimmed };
  if (/^(true|false|null)$/i.test(trimmed)) return { ok: true, text: trimmed.toUpperCase() };
  return { ok: true, text: `'${value.replaceAll("'", "''")}'` };
}

function digitsEnd(text: string, from: number, limit: number): number {
  let i = from;
  while (i < limit && isDigitAt(text, i)) i++;
  return i;
}

function nameEnd(text: string, from: number, limit: number): number {
  let i = from;
  while (
    i < limit &&
    (isWordChar(text.charCodeAt(i)) || (text[i] === '.' && isWordChar(text.charCodeAt(i + 1))))
  )
    i++;
  return i;
}

function isDigitAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/** PostgreSQL's jsonb `?|` and `?&` operators are not placeholders. */
function isJsonOperator(text: string, i: number): boolean {
  return text[i + 1] === '|' || text[i + 1] === '&';
}
