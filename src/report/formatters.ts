/** The table of formatters: pure functions over a run result; callers print or write the text. */
import type { RunResult } from '../shared/result';
import { formatCsv } from './csv';
import { formatMarkdown } from './markdown';

export const FORMATS = ['markdown', 'json', 'csv'] as const;
export type FormatName = (typeof FORMATS)[number];

export const FORMATTERS: Record<FormatName, (result: RunResult) => string> = {
  markdown: formatMarkdown,
  json: (result) => JSON.stringify(result, null, 2) + '\n',
  csv: formatCsv,
};

export function isFormatName(value: string): value is FormatName {
  return (FORMATS as readonly string[]).includes(value);
}
