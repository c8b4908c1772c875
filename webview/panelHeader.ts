/** The title, subtitle and export buttons at the top of a run panel and of a places panel. */
import type { ExportFormat } from '../src/shared/formats';
import { h } from './dom';

export interface ExportHooks {
  onExport(format: ExportFormat): void;
  onCopy(): void;
}

/** What each export button says it saves: a single run and a group of places differ. */
export type ExportTitles = Record<ExportFormat, string>;

export function panelHeader(
  title: string,
  subtitle: string,
  titles: ExportTitles,
  hooks: ExportHooks,
): HTMLElement {
  const button = (label: string, action: () => void, tooltip: string) => {
    const b = h('button', { type: 'button', title: tooltip }, label);
    b.addEventListener('click', action);
    return b;
  };
  return h(
    'header',
    {},
    h('h1', {}, title.replace(/^DB Probe: /, '')),
    h('p', { class: 'muted' }, subtitle),
    h(
      'div',
      { class: 'actions' },
      button('Export Markdown', () => hooks.onExport('markdown'), titles.markdown),
      button('Copy Markdown', () => hooks.onCopy(), 'Copy the Markdown report to the clipboard'),
      button('JSON', () => hooks.onExport('json'), titles.json),
      button('CSV', () => hooks.onExport('csv'), titles.csv),
    ),
  );
}
