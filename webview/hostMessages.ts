/**
 * The panel's door for messages from the extension host. Only what passes the protocol's guard reaches
 * the handler: a malformed model or a type this webview does not know (a host of another version) is
 * dropped, never half-drawn. The first drop is logged to the console, once, so a mismatch shows in the
 * webview's developer tools without flooding them; nothing is thrown into the browser's event loop.
 */
import { isHostMessage, type HostMessage } from '../src/shared/messages';

/** Longest message type quoted in the log line (the type is the only part of a dropped message shown). */
const TYPE_SHOWN_MAX = 40;

export function acceptHostMessages(
  handle: (message: HostMessage) => void,
  warn: (line: string) => void = (line) => console.warn(line),
): (data: unknown) => boolean {
  let warned = false;
  return (data) => {
    if (isHostMessage(data)) {
      handle(data);
      return true;
    }
    if (!warned) {
      warned = true;
      warn(`DB Probe panel: ignored a message it does not understand (${describe(data)}); reopen the panel.`);
    }
    return false;
  };
}

function describe(data: unknown): string {
  const type = typeof data === 'object' && data !== null && 'type' in data ? data.type : undefined;
  return typeof type === 'string' ? `type "${type.slice(0, TYPE_SHOWN_MAX)}"` : `a ${typeof data}`;
}
