/**
 * What crossed the wire, one row per target and per-sample kind: the rows the Markdown
 * report and the run panel both show, computed once here from the measurements' `wire` figures.
 * A figure the tool could not count carries its reason instead; a kind without wire figures (a run
 * from before them) has no row.
 */
import type { ProbeKind } from './plan';
import type { Measurement, MeasurementWire } from './result';

export interface WireRow {
  target: string;
  kind: ProbeKind;
  roundTrips?: number;
  tcpHandshakes?: number;
  bytesSent?: number;
  bytesReceived?: number;
  /** "TLSv1.3 TLS_AES_256_GCM_SHA384"; absent on plaintext. */
  tls?: string;
  alpn?: string;
  clientCpuUs?: number;
  /** The kind's connect p50, when its samples opened connections (initial, cold). */
  connectP50Us?: number;
  /** clientCpuUs / connect p50: the client's own share of a connect, 0 to 1 (see clientShare). */
  clientShare?: number;
  unmeasured?: MeasurementWire['unmeasured'];
}

const WIRE_KINDS: readonly ProbeKind[] = ['initial', 'subsequent', 'cold'];

export function wireRows(measurements: readonly Measurement[]): WireRow[] {
  const rows: WireRow[] = [];
  for (const kind of WIRE_KINDS) {
    for (const m of measurements) {
      if (m.kind !== kind || !m.wire) continue;
      const w = m.wire;
      const connectP50Us = m.phases?.connect.count ? m.phases.connect.p50Us : undefined;
      rows.push({
        target: m.target,
        kind,
        ...pick(w),
        ...(w.tlsVersion ? { tls: [w.tlsVersion, w.tlsCipher].filter(Boolean).join(' ') } : {}),
        connectP50Us,
        ...(w.clientCpuUs !== undefined && connectP50Us
          ? { clientShare: clientShareOf(w.clientCpuUs, connectP50Us) }
          : {}),
        ...(w.unmeasured && Object.keys(w.unmeasured).length > 0 ? { unmeasured: { ...w.unmeasured } } : {}),
      });
    }
  }
  return rows;
}

/**
 * The client's CPU over the connect, at most the whole connect. The CPU can read above the wall time:
 * it is the process's (crypto and GC threads work beside the probing one where Node has no per-thread
 * figure), and the two medians come from different samples. A client cannot take more than all of a
 * connect, so "106%" is shown as 100%.
 */
export function clientShareOf(cpuUs: number, connectP50Us: number): number {
  return Math.min(1, cpuUs / connectP50Us);
}

function pick(w: MeasurementWire): Partial<WireRow> {
  const out: Partial<WireRow> = {};
  if (w.roundTrips !== undefined) out.roundTrips = w.roundTrips;
  if (w.tcpHandshakes !== undefined) out.tcpHandshakes = w.tcpHandshakes;
  if (w.bytesSent !== undefined) out.bytesSent = w.bytesSent;
  if (w.bytesReceived !== undefined) out.bytesReceived = w.bytesReceived;
  if (w.alpn !== undefined) out.alpn = w.alpn;
  if (w.clientCpuUs !== undefined) out.clientCpuUs = w.clientCpuUs;
  return out;
}

/** Bytes as people read them: 512 B, 1.4 KB (1000s, as network figures are). */
export function bytesText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}

/** The client's share of a connect as a percentage, or a dash. */
export function shareText(share: number | undefined): string {
  return share === undefined ? '-' : `${Math.round(share * 100)}%`;
}
