/**
 * The export formats: one list for the CLI's `--format`, the panel's export buttons, the protocol's
 * guard and the table of formatters (a format without a formatter is a type error there).
 */
export const EXPORT_FORMATS = ['markdown', 'json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(value: unknown): value is ExportFormat {
  return (EXPORT_FORMATS as readonly unknown[]).includes(value);
}
