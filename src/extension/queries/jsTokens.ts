/**
 * A small JavaScript/TypeScript tokenizer: just enough to find string literals, templates and the
 * calls around them without a parser. Comments and regular expression literals are skipped so a quote
 * inside them does not open a string. One pass over the characters, no regular expression on the
 * input, bounded by the caller's slice of the text: a 5 MB file cannot make it slow.
 */

export type JsToken =
  | { type: 'ident'; start: number; end: number; value: string }
  | { type: 'punct'; start: number; end: number; value: string }
  | { type: 'number'; start: number; end: number; value: string }
  /** A '...' or "..." literal; `value` is the decoded text. */
  | { type: 'string'; start: number; end: number; value: string }
  /** A `...` literal: its text chunks and the source of each ${...} between them. */
  | { type: 'template'; start: number; end: number; chunks: string[]; expressions: string[] };

/** Enough for any real source file's first slice; past it the caller stops looking. */
export const MAX_TOKENS = 200_000;

/** After these, a `/` starts a regular expression rather than dividing. */
const REGEX_AFTER_PUNCT = new Set([
  '(',
  ',',
  '=',
  ':',
  '[',
  '!',
  '&',
  '|',
  '?',
  '{',
  '}',
  ';',
  '+',
  '-',
  '*',
  '%',
  '<',
  '>',
  '~',
  '^',
]);
const REGEX_AFTER_WORD = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
]);

export function tokenizeJs(text: string, maxTokens = MAX_TOKENS): JsToken[] {
  const tokens: JsToken[] = [];
  let i = 0;
  const n = text.length;
  while (i < n && tokens.length < maxTokens) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === '/' && next === '/') {
      i = skipLine(text, i);
      continue;
    }
    if (ch === '/' && next === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
      continue;
    }
    if (ch === '/' && startsRegex(tokens[tokens.length - 1])) {
      i = skipRegex(text, i);
      continue;
    }
    if (ch === "'" || ch === '"') {
      const { end, value } = readQuoted(text, i);
      tokens.push({ type: 'string', start: i, end, value });
      i = end;
      continue;
    }
    if (ch === '`') {
      const template = readTemplate(text, i);
      tokens.push({ type: 'template', start: i, ...template });
      i = template.end;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(text.charCodeAt(j))) j++;
      tokens.push({ type: 'ident', start: i, end: j, value: text.slice(i, j) });
      i = j;
      continue;
    }
    if (isDigit(c)) {
      let j = i + 1;
      while (j < n && (isIdentPart(text.charCodeAt(j)) || text[j] === '.')) j++;
      tokens.push({ type: 'number', start: i, end: j, value: text.slice(i, j) });
      i = j;
      continue;
    }
    tokens.push({ type: 'punct', start: i, end: i + 1, value: ch });
    i++;
  }
  return tokens;
}

function startsRegex(previous: JsToken | undefined): boolean {
  if (!previous) return true;
  if (previous.type === 'punct') return REGEX_AFTER_PUNCT.has(previous.value);
  if (previous.type === 'ident') return REGEX_AFTER_WORD.has(previous.value);
  return false;
}

function skipLine(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline < 0 ? text.length : newline + 1;
}

/** A regular expression literal ends at an unescaped `/` outside a character class, or at the line end. */
function skipRegex(text: string, from: number): number {
  let inClass = false;
  for (let i = from + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === '\n') return i;
    else if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    else if (ch === '/' && !inClass) return i + 1;
  }
  return text.length;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };

function readQuoted(text: string, from: number): { end: number; value: string } {
  const quote = text[from];
  let value = '';
  let runStart = from + 1;
  let i = from + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === quote) return { end: i + 1, value: value + text.slice(runStart, i) };
    // An unterminated literal ends at the line: the rest of the file is still code.
    if (ch === '\n') return { end: i, value: value + text.slice(runStart, i) };
    if (ch === '\\') {
      const escaped = text[i + 1] ?? '';
      value += text.slice(runStart, i) + (ESCAPES[escaped] ?? (escaped === '\n' ? '' : escaped));
      i += 2;
      runStart = i;
      continue;
    }
    i++;
  }
  return { end: text.length, value: value + text.slice(runStart) };
}

/** Templates nested deeper than this inside ${...} are read as text: no real code comes close. */
const MAX_TEMPLATE_DEPTH = 16;

function readTemplate(
  text: string,
  from: number,
  depth = 0,
): { end: number; chunks: string[]; expressions: string[] } {
  const chunks: string[] = [];
  const expressions: string[] = [];
  let chunk = '';
  let i = from + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '`') {
      chunks.push(chunk);
      return { end: i + 1, chunks, expressions };
    }
    if (ch === '\\') {
      const escaped = text[i + 1] ?? '';
      chunk += ESCAPES[escaped] ?? escaped;
      i += 2;
      continue;
    }
    if (ch === '$' && text[i + 1] === '{') {
      chunks.push(chunk);
      chunk = '';
      if (depth >= MAX_TEMPLATE_DEPTH) return { end: text.length, chunks: [...chunks, chunk], expressions };
      const close = skipExpression(text, i + 2, depth + 1);
      expressions.push(text.slice(i + 2, close).trim());
      i = close + 1;
      continue;
    }
    chunk += ch;
    i++;
  }
  chunks.push(chunk);
  return { end: text.length, chunks, expressions };
}

/** The index of the `}` closing a ${...} that starts at `from`, skipping strings and nested templates. */
function skipExpression(text: string, from: number, nesting: number): number {
  let depth = 0;
  let i = from;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "'" || ch === '"') {
      i = readQuoted(text, i).end;
      continue;
    }
    if (ch === '`') {
      i = readTemplate(text, i, nesting).end;
      continue;
    }
    if (ch === '{') depth++;
    else if (ch === '}') {
      if (depth === 0) return i;
      depth--;
    }
    i++;
  }
  return text.length;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 36 || c === 95 || c > 127;
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || isDigit(c);
}

export function identAt(tokens: JsToken[], k: number): string | undefined {
  const token = tokens[k];
  return token?.type === 'ident' ? token.value : undefined;
}

export function isPunct(token: JsToken | undefined, value: string): boolean {
  return token?.type === 'punct' && token.value === value;
}
