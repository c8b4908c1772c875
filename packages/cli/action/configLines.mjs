/**
 * Where a target is written in the config, so an annotation points at it: the 1-based line of its
 * `"name": "..."` (the name as JSON writes it), or undefined when the text does not hold it.
 */
export function targetLine(configText, targetName) {
  const name = JSON.stringify(targetName).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`"name"\\s*:\\s*${name}`).exec(configText);
  return match ? configText.slice(0, match.index).split('\n').length : undefined;
}
