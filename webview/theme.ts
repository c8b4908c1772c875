/**
 * Chart colours, read from the theme's --vscode-* variables at draw time (and again when the theme
 * changes), with lighter shades made by color-mix() so light, dark and high-contrast themes all work.
 */

import { opaque } from './colour';

export interface ChartTheme {
  foreground: string;
  /** The editor's background: high-contrast fills mix with it instead of going transparent. */
  background: string;
  grid: string;
  font: string;
  /** Series colours in order; each is a resolved CSS colour. */
  series: string[];
  highContrast: boolean;
}

const SERIES_VARS = [
  '--vscode-charts-blue',
  '--vscode-charts-orange',
  '--vscode-charts-green',
  '--vscode-charts-purple',
  '--vscode-charts-red',
  '--vscode-charts-yellow',
];

/** Resolves any CSS colour expression (var(), color-mix()) to the rgb() string a canvas accepts. */
export function resolveColour(expression: string): string {
  const probe = document.createElement('span');
  probe.style.color = expression;
  probe.style.display = 'none';
  document.body.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}

export function isHighContrast(): boolean {
  return (
    document.body.classList.contains('vscode-high-contrast') ||
    document.body.classList.contains('vscode-high-contrast-light')
  );
}

export function readTheme(): ChartTheme {
  const style = getComputedStyle(document.body);
  const highContrast = isHighContrast();
  const base = SERIES_VARS.map((v) => opaque(resolveColour(`var(${v})`)));
  // Six theme colours do not tell ten targets apart: six more, each a theme colour mixed with the
  // text colour, stay on the readable side of the background in light, dark and high-contrast themes.
  const derived = base.map((c) =>
    resolveColour(`color-mix(in srgb, ${c} 55%, var(--vscode-charts-foreground, var(--vscode-foreground)))`),
  );
  return {
    foreground: resolveColour('var(--vscode-charts-foreground, var(--vscode-foreground))'),
    background: resolveColour('var(--vscode-editor-background)'),
    // High-contrast themes draw every line in their contrast border colour; the default chart lines
    // there are a faint half-transparent foreground.
    grid: resolveColour(
      highContrast
        ? 'var(--vscode-contrastBorder, var(--vscode-charts-lines, currentColor))'
        : 'var(--vscode-charts-lines, var(--vscode-widget-border, currentColor))',
    ),
    font: style.getPropertyValue('--vscode-font-family').trim() || 'sans-serif',
    series: [...base, ...derived],
    highContrast,
  };
}

/**
 * A lighter shade of a series colour, for a second statistic of the same series. Transparent in
 * ordinary themes; in high-contrast themes mixed with the background instead, opaque, since those
 * themes avoid see-through colours (a high-contrast chart also outlines every bar in the full colour).
 */
export function shade(colour: string, percent: number): string {
  const other = isHighContrast() ? 'var(--vscode-editor-background)' : 'transparent';
  return resolveColour(`color-mix(in srgb, ${colour} ${percent}%, ${other})`);
}

export function onThemeChange(callback: () => void): void {
  // VS Code swaps the body's theme classes when the user changes theme.
  new MutationObserver(callback).observe(document.body, { attributes: true, attributeFilter: ['class'] });
}
