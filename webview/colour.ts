/** Colour strings, without the DOM: testable from Node. */

/**
 * The colour without its alpha. Some themes give chart colours a low alpha (Light Modern's orange is
 * 33% opaque), meant for fills; a line or the main bar of a series must stay readable on its own.
 */
export function opaque(colour: string): string {
  const rgba = /^rgba\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)[,\s/]+[\d.]+\s*\)$/.exec(colour);
  if (rgba) return `rgb(${rgba[1]}, ${rgba[2]}, ${rgba[3]})`;
  return colour.replace(/^(color\([^)]*?)\s*\/\s*[\d.]+\s*\)$/, '$1)');
}

/**
 * WCAG contrast ratio (1 to 21) of two `rgb()`/`rgba()` colours as getComputedStyle gives them;
 * undefined for any other form (e.g. `color(srgb ...)` from color-mix in some engines).
 */
export function contrastRatio(a: string, b: string): number | undefined {
  const la = luminance(a);
  const lb = luminance(b);
  if (la === undefined || lb === undefined) return undefined;
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function luminance(colour: string): number | undefined {
  const match = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/.exec(colour);
  if (!match) return undefined;
  const [r, g, b] = [match[1], match[2], match[3]].map((c) => {
    const s = Number(c) / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}
