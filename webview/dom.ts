/** A tiny element builder: text goes in as text nodes, never as HTML, so no value can inject markup. */

type Child = Node | string | number | undefined | null | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs))
    if (value !== undefined) element.setAttribute(name, value);
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    element.append(typeof child === 'number' ? String(child) : child);
  }
  return element;
}

export function section(title: string, id: string, ...children: Child[]): HTMLElement {
  return h(
    'section',
    { id, 'aria-labelledby': `${id}-title` },
    h('h2', { id: `${id}-title` }, title),
    ...children,
  );
}

/**
 * A section the reader can fold: its heading is the <summary> of a <details>, so one click (or Enter)
 * opens or closes it, and the browser's find opens it to show a match. `open`: shown at first.
 */
export function foldSection(title: string, id: string, open: boolean, ...children: Child[]): HTMLElement {
  return h(
    'section',
    { id, 'aria-labelledby': `${id}-title`, class: 'fold' },
    h(
      'details',
      { open: open ? '' : undefined, 'data-fold': id },
      h('summary', {}, h('h2', { id: `${id}-title` }, title)),
      ...children,
    ),
  );
}
