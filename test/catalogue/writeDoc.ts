/**
 * Writes docs/bad-inputs.md from the catalogue: `node --import tsx test/catalogue/writeDoc.ts`.
 * test/unit/bad-inputs-doc.test.ts checks the doc and the table name the same rows.
 */
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { BAD_INPUTS, type BadInput } from './badInputs';

const AREAS: Record<BadInput['area'], string> = {
  config: 'Config (`dbprobe.json`, flags, environment)',
  connection: 'Connection strings',
  network: 'Network and server faults (one `initial` sample, 1-3 s timeouts)',
  'mid-run': 'A fault in the middle of a run',
  runner: 'Remote runner (`dbprobe run --runner URL`)',
  cli: 'Flags, outputs and verdicts (`dbprobe run`; test/cli/bad-inputs-table.test.ts): none exits 0',
  edges:
    'Outputs, saved results, signals, unchecked TLS and other edges (test/cli/edges.test.ts, against the testbed)',
  'hang-ups':
    'Hang-ups, pipes, load verdicts, limits and flags a run would ignore (test/cli/hang-ups.test.ts)',
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function seen(row: BadInput): string {
  if (row.notTestable) return `not tested here: ${row.notTestable}`;
  const line =
    row.line.source === '^$' ? 'no error line' : `\`${row.line.source.replace(/^\^/, '').slice(0, 160)}\``;
  return `exit ${row.exit}${row.errorClass ? `, class \`${row.errorClass}\`` : ''}; ${line}`;
}

const lines = [
  '# Bad inputs: what you see, what to do',
  '',
  'Every wrong input dbprobe was tried with, as a user would hand it, and the one line it answers. Each',
  'row is a test (`test/integration/bad-inputs-*.test.ts`, data in `test/catalogue/badInputs.ts`); the',
  'regular expression is the line the test expects on stderr (`dbprobe: ...`). No case prints a stack',
  'trace, and none prints a password or token, raw, percent-encoded or base64-encoded',
  '(`test/integration/bad-inputs-leaks.test.ts`).',
  '',
  'In VS Code, the panel shows the same failure (class, message and hint) for every connection-string,',
  'network and mid-run row: it reads them from the same run result. Config rows are caught by the',
  "extension's own checks before a run starts.",
  '',
  'The latest round of tries as a new user, with a verdict each (clear, unclear or wrong), is in',
  '[bad-inputs-tries.md](bad-inputs-tries.md).',
  '',
];
for (const [area, title] of Object.entries(AREAS)) {
  lines.push(`## ${title}`, '', '| id | input | what you see | what to do |', '| --- | --- | --- | --- |');
  for (const row of BAD_INPUTS.filter((r) => r.area === area)) {
    lines.push(`| \`${row.id}\` | ${cell(row.input)} | ${cell(seen(row))} | ${cell(row.todo)} |`);
  }
  lines.push('');
}
writeFileSync(path.join(__dirname, '../../docs/bad-inputs.md'), lines.join('\n'));
