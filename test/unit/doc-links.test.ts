/** Every relative link in README.md and docs/*.md points at a file that exists (and a heading, if it names one). */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(__dirname, '..', '..');
const DOCS = [
  'README.md',
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
