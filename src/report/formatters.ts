/** The table of formatters: pure functions over a run result; callers print or write the text. */
import type { ExportFormat } from '../shared/formats';
import type { RunResult } from '../shared/result';
import { formatCsv } from './csv';
import { formatMarkdown } from './markdown';
import type { ReportOptions } from './reportOptions';

export const FORMATTERS: Record<ExportFormat, (result: RunResult, options?: ReportOptions) => string> = {
  markdown: formatMarkdown,
  json: (result) => JSON.stringify(result, null, 2) + '\n',
  csv: formatCsv,
};
