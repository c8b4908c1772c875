/**
 * GitHub's workflow commands (`::error file=...,line=...::message`), escaped as @actions/core
 * escapes them: a message or a property holding `%`, a newline, `:` or `,` would otherwise end the
 * command early or be read as another property.
 */

function escapeData(text) {
  return String(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text) {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One command line, e.g. workflowCommand('error', { file: 'dbprobe.json', line: 4, title: 'x' }, 'why'). */
export function workflowCommand(command, properties, message) {
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${escapeProperty(value)}`)
    .join(',');
  return `::${command}${props ? ` ${props}` : ''}::${escapeData(message)}`;
}
