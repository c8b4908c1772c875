/**
 * Sentences about a load sweep's client: where its throughput ceiling or knee belongs to the client
 * (one saturated JavaScript thread) rather than the database. Shared by the Markdown and the panel.
 */
import type { LoadFigures } from './loadResult';

/** Undefined when no level was client-limited; else what the reader must know about the sweep's end. */
export function clientLimitSentence(load: LoadFigures): string | undefined {
  const limited = load.levels.filter((l) => l.clientLimited);
  if (limited.length === 0) return undefined;
  const unit = load.model === 'open' ? '/s' : ' connections';
  const at = limited.map((l) => `${l.level}${unit}`).join(', ');
  const first = limited[0]!.clientLimited!;
  const knee = load.knee ? load.levels.find((l) => l.level === load.knee!.level) : undefined;
  const parts = [`The client was the limit at ${at} (${first}).`];
  if (load.clientCeiling !== undefined)
    parts.push(
      `Throughput stopped growing from ${load.clientCeiling}${unit} while the client was saturated: that ceiling is the client's, not the database's.`,
    );
  if (knee?.clientLimited)
    parts.push(`The knee at ${knee.level}${unit} is the client's, not the database's.`);
  return parts.join(' ');
}
