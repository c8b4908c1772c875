/**
 * Chart colours, read from the theme's --vscode-* variables at draw time (and again when the theme
 * changes), with lighter shades made by color-mix() so light, dark and high-contrast themes all work.
 */

import { contrastRatio, opaque } from './colour';

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

/**
 * Stand-ins for a chart colour a theme leaves out or sets to its text or background colour (some
 * high-contrast themes do): other colours every theme defines, tried in order.
 */
const FALLBACK_VARS = [
  '--vscode-terminal-ansiBrightYellow',
  '--vscode-terminal-ansiBrightMagenta',
  '--vscode-terminal-ansiBrightCyan',
  '--vscode-terminal-ansiBrightGreen',
  '--vscode-terminal-ansiBrightRed',
  '--vscode-terminal-ansiBrightBlue',
  '--vscode-editorWarning-foreground',
  '--vscode-textLink-foreground',
];

/** Resolved colours of the current theme: each lookup forces a style pass, and a panel makes hundreds. */
const resolved = new Map<string, string>();

/** Resolves any CSS colour expression (var(), color-mix()) to the rgb() string a canvas accepts. */
export function resolveColour(expression: string): string {
  const known = resolved.get(expression);
  if (known !== undefined) return known;
  const probe = document.createElement('span');
  probe.style.color = expression;
  probe.style.display = 'none';
  document.body.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  resolved.set(expression, colour);
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
  const foreground = resolveColour('var(--vscode-charts-foreground, var(--vscode-foreground))');
  const background = resolveColour('var(--vscode-editor-background)');
  const taken = new Set([foreground, background]);
  // A variable the theme leaves out resolves to transparent here; opaque() would make that black.
  const defined = (v: string) => {
    const colour = resolveColour(`var(${v}, transparent)`);
    return colour === 'rgba(0, 0, 0, 0)' ? undefined : opaque(colour);
  };
  // Marks and lines must stand out from the background: 3:1, the WCAG figure for graphics.
  const readable = (c: string | undefined): c is string =>
    c !== undefined && !taken.has(c) && (contrastRatio(c, background) ?? 3) >= 3;
  const fallbacks = FALLBACK_VARS.map(defined);
  const base = SERIES_VARS.map((v) => {
    let colour = defined(v);
    // A high-contrast theme's own colour must pass too; elsewhere the theme's choice stands.
    const usable = highContrast ? readable(colour) : colour !== undefined && !taken.has(colour);
    if (!usable || colour === undefined) colour = fallbacks.find(readable) ?? foreground;
    taken.add(colour);
    return colour;
  });
  // Six theme colours do not tell ten targets apart: six more, each a theme colour mixed with the
  // text colour, stay on the readable side of the background in light, dark and high-contrast themes.
  const derived = base.map((c) =>
    resolveColour(`color-mix(in srgb, ${c} 55%, var(--vscode-charts-foreground, var(--vscode-foreground)))`),
  );
  return {
    foreground,
    background,
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
  // VS Code swaps the body's theme classes, and sets the theme's variables on <html>, when the user
  // changes theme (two light themes differ only in their variables).
  const observer = new MutationObserver(() => {
    resolved.clear();
    callback();
  });
  observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
}
