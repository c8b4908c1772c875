/**
 * Every relative link in README.md, CONTRIBUTING.md and docs/*.md points at a file that exists (and a
 * heading, if it names one), and the README stays a short front page: at most 200 lines, none over 200
 * characters outside code blocks (the rest lives in docs/, by topic).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(__dirname, '..', '..');
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Inline `[text](target)` and reference `[id]: target` links, without code spans and blocks. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const inline = [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? '');
  const reference = [...prose.matchAll(/^\[[^\]]+\]:\s+(\S+)/gm)].map((m) => m[1] ?? '');
  return [...inline, ...reference];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const headings = [...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+)$/gm)];
  return new Set(
    headings.map((m) =>
      (m[1] ?? '')
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    ),
  );
}

for (const doc of DOCS) {
  test(`${doc}: every relative link resolves`, () => {
    const text = readFileSync(path.join(root, doc), 'utf8');
    const relative = linksOf(text).filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link));
    const broken: string[] = [];
    for (const link of relative) {
      const [target = '', anchor] = link.split('#');
      const file = target
        ? path.resolve(path.dirname(path.join(root, doc)), decodeURIComponent(target))
        : path.join(root, doc);
      if (!existsSync(file)) {
        broken.push(`${link} (no such file)`);
        continue;
      }
      if (anchor && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) {
        broken.push(`${link} (no such heading)`);
      }
    }
    assert.deepEqual(broken, [], `${doc} has broken links`);
  });
}

test('the link checker sees links, and sees a broken one', () => {
  const links = linksOf('see [a](docs/a.md#x) and `[b](c.md)` and\n\n[ref]: ../d.md\n');
  assert.deepEqual(links, ['docs/a.md#x', '../d.md']);
  assert.ok(anchorsOf('## Config: `dbprobe.json`\n').has('config-dbprobejson'));
});

const README_MAX_LINES = 200;
const README_MAX_LINE_CHARS = 200;

/** Lines over `max` characters outside fenced code blocks, as "line N (C chars)". */
function longProseLines(markdown: string, max: number): string[] {
  let fenced = false;
  const long: string[] = [];
  markdown.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced && line.length > max) long.push(`line ${index + 1} (${line.length} chars)`);
  });
  return long;
}

test(`README.md: at most ${README_MAX_LINES} lines, none over ${README_MAX_LINE_CHARS} characters outside code`, () => {
  const text = readFileSync(path.join(root, 'README.md'), 'utf8');
  const lines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
  assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines; move detail to docs/`);
  assert.deepEqual(longProseLines(text, README_MAX_LINE_CHARS), [], 'README.md lines too long outside code');
});

test('the long-line check skips code blocks and sees a long prose line', () => {
  const wide = 'x'.repeat(201);
  assert.deepEqual(longProseLines(`a\n\`\`\`sh\n${wide}\n\`\`\`\n${wide}\n`, 200), ['line 5 (201 chars)']);
});
