/**
 * The Markdown report's phases tables: where a new connection spends its time (p50 per step, TLS
 * apart), the network floor, and each target's figures over it. Steps that happened but could not be
 * seen say "not measured" with a footnote giving why; they are never shown as a zero.
 */
import {
  PHASE_LABELS,
  PHASE_STEPS,
  PER_SAMPLE_KINDS,
  connectAnatomies,
  targetFloors,
  type ConnectAnatomy,
  type StepFigure,
} from '../shared/connectPhases';
import type { Measurement } from '../shared/result';
import { ms, signedMs } from '../shared/units';
import { bytesText, shareText, wireRows, type WireRow } from '../shared/wireRows';

export function phasesSection(measurements: readonly Measurement[]): string[] {
  const footnotes = new Footnotes();
  const lines = [...anatomySection(measurements, footnotes), ...wireSection(measurements, footnotes)];
  return lines.length === 0 ? [] : [...lines, ...footnotes.lines()];
}

function anatomySection(measurements: readonly Measurement[], footnotes: Footnotes): string[] {
  const rows = connectAnatomies(measurements);
  if (rows.length === 0) return [];
  const withHandshakes = rows.some((row) => row.tlsHandshakes);
  const lines = [
    '## Where a new connection spends its time (initial)',
    '',
    "p50 of each step: DNS, TCP and TLS as seen on the driver's own socket, then the protocol handshake and auth, then the first query on the new connection. The TCP connect is one round trip on the wire with no database work in it: the target's **network floor**. *Over the floor* = p50 minus the TCP p50: what the protocol and the database add beyond distance. A dash: the step did not happen (an IP address needs no DNS, a plaintext connection no TLS) or the result does not split it.",
    '',
    `| Target | ${PHASE_STEPS.map((s) => (s === 'tcp' ? 'TCP (floor)' : PHASE_LABELS[s])).join(' | ')} | connect | total | over the floor |${withHandshakes ? ' TLS handshakes |' : ''}`,
    `| --- | ${PHASE_STEPS.map(() => '---:').join(' | ')} | ---: | ---: | ---: |${withHandshakes ? ' --- |' : ''}`,
    ...rows.map((row) => {
      const steps = row.steps.map((s) => stepCell(row, s, footnotes));
      const over = row.floorUs === undefined ? '-' : signedMs(row.totalP50Us - row.floorUs);
      const handshakes = withHandshakes ? ` ${handshakesCell(row)} |` : '';
      return `| ${cell(row.target)} | ${steps.join(' | ')} | ${ms(row.connectP50Us)} | ${ms(row.totalP50Us)} | ${over} |${handshakes}`;
    }),
    '',
    ...floorTable(measurements),
  ];
  return lines;
}

const WIRE_FIGURE_LABELS: Record<string, string> = {
  roundTrips: 'round trips',
  bytes: 'bytes',
  tls: 'TLS',
  alpn: 'ALPN',
  clientCpu: 'client CPU',
};

/** What crossed each target's own sockets per kind: round trips, bytes, TLS, the client's CPU. */
function wireSection(measurements: readonly Measurement[], footnotes: Footnotes): string[] {
  const rows = wireRows(measurements);
  if (rows.length === 0) return [];
  const reasons = (row: WireRow, figure: string): string => {
    const why = row.unmeasured?.[figure as keyof NonNullable<WireRow['unmeasured']>];
    return why ? footnotes.ref(`${row.target} (${row.kind}): ${WIRE_FIGURE_LABELS[figure]}: ${why}`) : '';
  };
  const count = (value: number | undefined, row: WireRow, figure: string): string =>
    value !== undefined ? `${value}${reasons(row, figure)}` : `not counted${reasons(row, figure)}`;
  const shares = rows.filter((r) => r.clientShare !== undefined && r.connectP50Us !== undefined);
  return [
    '### What crosses the wire',
    '',
    "Counted on each sample's own sockets, median per kind. *Round trips*: the client writes, then waits for the server's answer (after the TCP handshake, counted apart; TLS turns included): what a longer distance multiplies. Bytes are the TCP payload both ways (encrypted under TLS). *Client CPU*: the probing thread's own CPU time during the connect; *client's share* = client CPU / connect p50, the part of a connect that no closer region would shorten.",
    '',
    "| Target | kind | round trips | TCP handshakes | sent | received | TLS | ALPN | client CPU (ms) | client's share of connect |",
    '| --- | --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |',
    ...rows.map((row) => {
      const sent = row.bytesSent !== undefined ? bytesText(row.bytesSent) : undefined;
      const received = row.bytesReceived !== undefined ? bytesText(row.bytesReceived) : undefined;
      const bytes = (text: string | undefined) => (text ?? 'not counted') + reasons(row, 'bytes');
      const cpu = row.clientCpuUs !== undefined ? `${ms(row.clientCpuUs)}${reasons(row, 'clientCpu')}` : '-';
      return `| ${cell(row.target)} | ${row.kind} | ${count(row.roundTrips, row, 'roundTrips')} | ${row.tcpHandshakes ?? '-'} | ${bytes(sent)} | ${bytes(received)} | ${row.tls ?? '-'}${reasons(row, 'tls')} | ${row.alpn ?? '-'} | ${cpu} | ${shareText(row.clientShare)} |`;
    }),
    '',
    ...shares.map(
      (r) =>
        `- ${cell(r.target)} (${r.kind}): the client's own work is ${shareText(r.clientShare)} of a connect (${ms(r.clientCpuUs!)} ms of CPU in a ${ms(r.connectP50Us!)} ms connect p50).`,
    ),
    ...(shares.length > 0 ? [''] : []),
  ];
}

/** Each target's per-sample kinds set against its floor. */
function floorTable(measurements: readonly Measurement[]): string[] {
  const floors = targetFloors(measurements);
  if (floors.length === 0) return [];
  const kinds = PER_SAMPLE_KINDS.filter((kind) => floors.some((f) => f.kinds.some((k) => k.kind === kind)));
  return [
    '### Over the network floor',
    '',
    "Each kind's p50 and the same minus the TCP p50. A negative figure is faster than one TCP connect (on loopback, opening a socket costs more than the round trip a warm query pays).",
    '',
    `| Target | floor (TCP p50) | ${kinds.map((k) => `${k} p50 | ${k} over the floor`).join(' | ')} |`,
    `| --- | ---: | ${kinds.map(() => '---: | ---:').join(' | ')} |`,
    ...floors.map((f) => {
      const cells = kinds.map((kind) => {
        const figure = f.kinds.find((k) => k.kind === kind);
        return figure ? `${ms(figure.p50Us)} | ${signedMs(figure.overUs)}` : '- | -';
      });
      return `| ${cell(f.target)} | ${ms(f.floorUs)} | ${cells.join(' | ')} |`;
    }),
    '',
  ];
}

function stepCell(row: ConnectAnatomy, step: StepFigure, footnotes: Footnotes): string {
  if (step.p50Us !== undefined) return ms(step.p50Us);
  if (step.unmeasured)
    return `not measured${footnotes.ref(`${row.target}: ${PHASE_LABELS[step.step]} not measured: ${step.unmeasured}`)}`;
  return '-';
}

function handshakesCell(row: ConnectAnatomy): string {
  const seen = row.tlsHandshakes;
  if (!seen) return '-';
  return `${seen.full} full${seen.resumed > 0 ? `, ${seen.resumed} resumed` : ''}`;
}

/** Numbered footnotes, one per distinct text (a reason shared by two targets gets two, each naming its target). */
class Footnotes {
  private readonly texts: string[] = [];

  ref(text: string): string {
    let index = this.texts.indexOf(text);
    if (index === -1) index = this.texts.push(text) - 1;
    return `[^phase-${index + 1}]`;
  }

  lines(): string[] {
    if (this.texts.length === 0) return [];
    return [...this.texts.map((text, i) => `[^phase-${i + 1}]: ${cell(text)}`), ''];
  }
}

/** Keeps user text from breaking the table. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
