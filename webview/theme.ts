/**
 * Chart colours, read from the theme's --vscode-* variables at draw time (and again when the theme
 * changes), with lighter shades made by color-mix() so light, dark and high-contrast themes all work.
 */

import { opaque } from './colour';

export interface ChartTheme {
  foreground: string;
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

export function readTheme(): ChartTheme {
  const style = getComputedStyle(document.body);
  return {
    foreground: resolveColour('var(--vscode-charts-foreground, var(--vscode-foreground))'),
    grid: resolveColour('var(--vscode-charts-lines, var(--vscode-widget-border, currentColor))'),
    font: style.getPropertyValue('--vscode-font-family').trim() || 'sans-serif',
    series: SERIES_VARS.map((v) => opaque(resolveColour(`var(${v})`))),
    highContrast:
      document.body.classList.contains('vscode-high-contrast') ||
      document.body.classList.contains('vscode-high-contrast-light'),
  };
}

/** A lighter or more transparent shade of a series colour, for a second statistic of the same series. */
export function shade(colour: string, percent: number): string {
  return resolveColour(`color-mix(in srgb, ${colour} ${percent}%, transparent)`);
}

export function onThemeChange(callback: () => void): void {
  // VS Code swaps the body's theme classes when the user changes theme.
  new MutationObserver(callback).observe(document.body, { attributes: true, attributeFilter: ['class'] });
}
