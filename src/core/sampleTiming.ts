/** What one sample of a sample-by-sample kind measured, as the kind hands it to the sample loop. */
import type { SampleReasons, SampleSuccess } from '../shared/result';

/**
 * One sample's latency (`us`, unrounded), its connect phase when the sample opened a connection and
 * what crossed its own sockets (wireWatch.ts), with the reasons for what it could not see.
 */
export interface SampleTiming extends Omit<SampleSuccess, 'atUs' | 'error'>, SampleReasons {
  /** A `cold` sample's hot connect taken right after it, and how long making it cold took. */
  cold?: { waitMs: number; hotUs: number; hotConnectUs?: number };
}
