/**
 * SQL text as code and not-code: string literals ('...' with '' inside), quoted identifiers ("..."
 * and MySQL's `...`), PostgreSQL dollar quotes ($$...$$, $tag$...$tag$) and comments (-- and /* *\/).
 * Statement splitting, classification and parameter finding all read only the code parts, so a `;`,
 * a keyword or a `?` inside a literal or a comment changes nothing. One pass, no regular expression on
 * the input.
 */

export interface SqlSegment {
  kind: 'code' | 'string' | 'identifier' | 'comment';
  start: number;
  end: number;
}

export function sqlSegments(text: string): SqlSegment[] {
  const segments: SqlSegment[] = [];
  let codeStart = 0;
  let i = 0;
  const push = (kind: SqlSegment['kind'], start: number, end: number) => {
    if (codeStart < start) segments.push({ kind: 'code', start: codeStart, end: start });
    segments.push({ kind, start, end });
    codeStart = end;
  };
  while (i < text.length) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === '-' && next === '-') {
      const newline = text.indexOf('\n', i);
      const end = newline < 0 ? text.length : newline;
      push('comment', i, end);
      i = end;
    } else if (ch === '/' && next === '*') {
      const close = text.indexOf('*/', i + 2);
      const end = close < 0 ? text.length : close + 2;
      push('comment', i, end);
      i = end;
    } else if (ch === "'" || ch === '"' || ch === '`') {
      const end = closeQuote(text, i, ch);
      push(ch === "'" ? 'string' : 'identifier', i, end);
      i = end;
    } else if (ch === '$' && !isWordChar(text.charCodeAt(i - 1))) {
      const tag = dollarTag(text, i);
      if (tag) {
        const close = text.indexOf(tag, i + tag.length);
        const end = close < 0 ? text.length : close + tag.length;
        push('string', i, end);
        i = end;
      } else i++;
    } else i++;
  }
  if (codeStart < text.length) segments.push({ kind: 'code', start: codeStart, end: text.length });
  return segments;
}

/** The text with every non-code part blanked to spaces: same length, so offsets still line up. */
export function sqlCodeOnly(text: string): string {
  return blank(text, sqlSegments(text), (kind) => kind !== 'code');
}

function blank(text: string, segments: SqlSegment[], blanked: (kind: SqlSegment['kind']) => boolean): string {
  let out = '';
  for (const s of segments) out += blanked(s.kind) ? ' '.repeat(s.end - s.start) : text.slice(s.start, s.end);
  return out;
}

/** Statements separated by `;` in code, trimmed, with their offsets in `text`; empty ones dropped. */
export function splitSqlStatements(text: string): { text: string; start: number; end: number }[] {
  const segments = sqlSegments(text);
  const code = blank(text, segments, (kind) => kind !== 'code');
  // Comments around a statement belong to no statement: the lens sits on the statement itself.
  const uncommented = blank(text, segments, (kind) => kind === 'comment');
  const statements: { text: string; start: number; end: number }[] = [];
  let from = 0;
  const add = (to: number) => {
    let start = from;
    let end = to;
    while (start < end && isBlank(uncommented.charCodeAt(start))) start++;
    while (end > start && isBlank(uncommented.charCodeAt(end - 1))) end--;
    if (end > start) statements.push({ text: text.slice(start, end), start, end });
  };
  for (let i = 0; i < code.length; i++) {
    if (code[i] === ';') {
      add(i);
      from = i + 1;
    }
  }
  add(code.length);
  return statements;
}

function closeQuote(text: string, from: number, quote: string): number {
  let i = from + 1;
  while (i < text.length) {
    if (text[i] === quote) {
      // A doubled quote is the quote itself, inside the literal.
      if (text[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return text.length;
}

/** `$$` or `$tag$` opening a dollar-quoted string; undefined for `$1` (a parameter) or a lone `$`. */
function dollarTag(text: string, from: number): string | undefined {
  let i = from + 1;
  if (text[i] === '$') return '$$';
  const first = text.charCodeAt(i);
  if (!(isLetter(first) || first === 95)) return undefined;
  while (i < text.length && i - from < 64 && isWordChar(text.charCodeAt(i))) i++;
  return text[i] === '$' ? text.slice(from, i + 1) : undefined;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

export function isWordChar(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57) || c === 95;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}
