/** What one sample of a sample-by-sample kind measured, as the kind hands it to the sample loop. */
import type { ConnectStep, SampleWire, WireReasons } from '../shared/result';

/** One sample's latency; `connectUs` is its connect phase when the sample opened a connection. */
export interface SampleTiming {
  us: number;
  connectUs?: number;
  /** Parts of connectUs seen on the driver's socket (see socketPhases.ts); they add up to connectUs. */
  dnsUs?: number;
  tcpUs?: number;
  tlsUs?: number;
  handshakeUs?: number;
  tlsResumed?: boolean;
  /** Steps of this sample's connect the driver could not see, with why (not part of the sample record). */
  unmeasured?: Partial<Record<ConnectStep, string>>;
  /** What crossed the sample's own sockets (wireWatch.ts). */
  wire?: SampleWire;
  /** Wire figures this sample could not count, with why (not part of the sample record). */
  wireUnmeasured?: WireReasons;
  /** A `cold` sample's hot connect taken right after it, and how long making it cold took. */
  cold?: { waitMs: number; hotUs: number; hotConnectUs?: number };
}
