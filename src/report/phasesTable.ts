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
  type TargetFloor,
} from '../shared/connectPhases';
import type { ProbeKind } from '../shared/plan';
import type { Measurement } from '../shared/result';
import { Footnotes } from './footnotes';
import { inlineText, markdownTable, type Column } from './markdownTable';
import { ms, signedMs } from '../shared/units';
import { bytesText, shareText, wireRows, type WireRow } from '../shared/wireRows';

export function phasesSection(measurements: readonly Measurement[]): string[] {
  const footnotes = new Footnotes('phase');
  const lines = [...anatomySection(measurements, footnotes), ...wireSection(measurements, footnotes)];
  return lines.length === 0 ? [] : [...lines, ...footnotes.lines()];
}

function anatomySection(measurements: readonly Measurement[], footnotes: Footnotes): string[] {
  const rows = connectAnatomies(measurements);
  if (rows.length === 0) return [];
  const withHandshakes = rows.some((row) => row.tlsHandshakes);
  return [
    '## Where a new connection spends its time (initial)',
    '',
    "p50 of each step: DNS, TCP and TLS as seen on the driver's own socket, then the protocol handshake and auth, then the first query on the new connection. The TCP connect is one round trip on the wire with no database work in it: the target's **network floor**. *Over the floor* = p50 minus the TCP p50: what the protocol and the database add beyond distance. A dash: the step did not happen (an IP address needs no DNS, a plaintext connection no TLS) or the result does not split it.",
    '',
    ...markdownTable(anatomyColumns(withHandshakes, footnotes), rows),
    '',
    ...floorTable(measurements),
  ];
}

function anatomyColumns(withHandshakes: boolean, footnotes: Footnotes): Column<ConnectAnatomy>[] {
  return [
    { header: 'Target', cell: (row) => row.target },
    ...PHASE_STEPS.map((step, i): Column<ConnectAnatomy> => ({
      header: step === 'tcp' ? 'TCP (floor)' : PHASE_LABELS[step],
      align: 'right',
      cell: (row) => {
        const figure = row.steps[i];
        return figure ? stepCell(row, figure, footnotes) : '-';
      },
    })),
    { header: 'connect', align: 'right', cell: (row) => ms(row.connectP50Us) },
    { header: 'total', align: 'right', cell: (row) => ms(row.totalP50Us) },
    {
      header: 'over the floor',
      align: 'right',
      cell: (row) => (row.floorUs === undefined ? '-' : signedMs(row.totalP50Us - row.floorUs)),
    },
    ...(withHandshakes ? [{ header: 'TLS handshakes', cell: handshakesCell }] : []),
  ];
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
  const reasons: Reasons = (row, figure) => {
    const why = row.unmeasured?.[figure as keyof NonNullable<WireRow['unmeasured']>];
    return why ? footnotes.ref(`${row.target} (${row.kind}): ${WIRE_FIGURE_LABELS[figure]}: ${why}`) : '';
  };
  const shares = rows.filter((r) => r.clientShare !== undefined && r.connectP50Us !== undefined);
  return [
    '### What crosses the wire',
    '',
    "Counted on each sample's own sockets, median per kind. *Round trips*: the client writes, then waits for the server's answer (after the TCP handshake, counted apart; TLS turns included): what a longer distance multiplies. Bytes are the TCP payload both ways (encrypted under TLS). *Client CPU*: the probing thread's own CPU time during the connect; *client's share* = client CPU / connect p50, the part of a connect that no closer region would shorten.",
    '',
    ...markdownTable(wireColumns(reasons), rows),
    '',
    ...shares.map(
      (r) =>
        `- ${inlineText(r.target)} (${r.kind}): the client's own work is ${shareText(r.clientShare)} of a connect (${ms(r.clientCpuUs!)} ms of CPU in a ${ms(r.connectP50Us!)} ms connect p50).`,
    ),
    ...(shares.length > 0 ? [''] : []),
  ];
}

type Reasons = (row: WireRow, figure: string) => string;

function wireColumns(reasons: Reasons): Column<WireRow>[] {
  const counted = (figure: string, text: (row: WireRow) => string | undefined) => (row: WireRow) =>
    (text(row) ?? 'not counted') + reasons(row, figure);
  return [
    { header: 'Target', cell: (row) => row.target },
    { header: 'kind', cell: (row) => row.kind },
    {
      header: 'round trips',
      align: 'right',
      cell: counted('roundTrips', (row) => row.roundTrips?.toString()),
    },
    { header: 'TCP handshakes', align: 'right', cell: (row) => row.tcpHandshakes ?? '-' },
    { header: 'sent', align: 'right', cell: counted('bytes', (row) => optionalBytes(row.bytesSent)) },
    { header: 'received', align: 'right', cell: counted('bytes', (row) => optionalBytes(row.bytesReceived)) },
    { header: 'TLS', cell: (row) => `${row.tls ?? '-'}${reasons(row, 'tls')}` },
    { header: 'ALPN', cell: (row) => row.alpn ?? '-' },
    {
      header: 'client CPU (ms)',
      align: 'right',
      cell: (row) =>
        row.clientCpuUs !== undefined ? `${ms(row.clientCpuUs)}${reasons(row, 'clientCpu')}` : '-',
    },
    { header: "client's share of connect", align: 'right', cell: (row) => shareText(row.clientShare) },
  ];
}

function optionalBytes(count: number | undefined): string | undefined {
  return count !== undefined ? bytesText(count) : undefined;
}

/** Each kind's p50 and the same over the floor, a dash pair when the target did not run the kind. */
function floorColumns(kinds: readonly ProbeKind[]): Column<TargetFloor>[] {
  const figureOf = (f: TargetFloor, kind: ProbeKind) => f.kinds.find((k) => k.kind === kind);
  return [
    { header: 'Target', cell: (f) => f.target },
    { header: 'floor (TCP p50)', align: 'right', cell: (f) => ms(f.floorUs) },
    ...kinds.flatMap((kind): Column<TargetFloor>[] => [
      {
        header: `${kind} p50`,
        align: 'right',
        cell: (f) => {
          const figure = figureOf(f, kind);
          return figure ? ms(figure.p50Us) : '-';
        },
      },
      {
        header: `${kind} over the floor`,
        align: 'right',
        cell: (f) => {
          const figure = figureOf(f, kind);
          return figure ? signedMs(figure.overUs) : '-';
        },
      },
    ]),
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
    "Each kind's p50 and the same minus the TCP p50. A negative figure is less than one TCP connect (on loopback, opening a socket costs more than the round trip a warm query pays).",
    '',
    ...markdownTable(floorColumns(kinds), floors),
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
