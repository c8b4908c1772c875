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
