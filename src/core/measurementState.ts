/** Everything recorded for one target and one probe kind while a run goes on. */
import type { ErrorClass, ProbeFailure } from '../shared/errors';
import type { ColdMode, ProbeKind } from '../shared/plan';
import type { LoadFigures, ScheduleFigures } from '../shared/loadResult';
import { ColdRecorder } from './coldFigures';
import type { ConnectStep, Measurement, SampleRecord, SampleSuccess } from '../shared/result';
import { encodeHistogram } from './histogram';
import type { SampleTiming } from './sampleTiming';
import { LatencyRecorder } from './stats';
import { WireRecorder } from './wireFigures';
import type { ServerTimeRecorder } from './serverTimeRecorder';
import type { RowsRecorder } from './rowsRecorder';

const FIRST_ERRORS_KEPT = 5;
/** Retrying these cannot succeed within one run: the same URL or credentials fail the same way. */
const HOPELESS: ReadonlySet<ErrorClass> = new Set(['config', 'auth', 'dns']);

/** What a measurement is of, and the plan's limits on what it keeps. */
export interface MeasurementOptions {
  target: string;
  kind: ProbeKind;
  /** Samples kept in the result; past it only counted (`dropped`). */
  sampleCap: number;
  /** Failures in a row, with no success yet, after which the target stops for this kind. */
  maxConsecutiveErrors: number;
  /** What this kind's samples share (Kind.reused). */
  reused: string[];
  /** Set for the `cold` kind: how the target is made cold, recorded with each cold pair. */
  coldMode?: ColdMode;
  /** Set for the kinds that read the database's own time (initial, subsequent). */
  serverTime?: ServerTimeRecorder;
  /** Set for a driver that streams rows (Driver.firstArrival). */
  rows?: RowsRecorder;
}

export class MeasurementState {
  readonly measured = new LatencyRecorder();
  readonly warm = new LatencyRecorder();
  /** Phases of samples that opened a connection: connect, then the first query on it. */
  private readonly connectPhase = new LatencyRecorder();
  private readonly firstQueryPhase = new LatencyRecorder();
  /** The steps of the connect phase seen on the driver's socket (see socketPhases.ts). */
  private readonly dnsPhase = new LatencyRecorder();
  private readonly tcpPhase = new LatencyRecorder();
  private readonly tlsPhase = new LatencyRecorder();
  private readonly handshakePhase = new LatencyRecorder();
  private readonly tlsHandshakes = { full: 0, resumed: 0 };
  /** Steps some sample could not see, with the first reason given. */
  private readonly unmeasured: Partial<Record<ConnectStep, string>> = {};
  private reasonsSent = false;
  /** Wire counts of the measured samples (wireFigures.ts). */
  private readonly wire = new WireRecorder();
  private readonly samples: SampleRecord[] = [];
  private dropped = 0;
  private readonly errorsByClass: Partial<Record<ErrorClass, number>> = {};
  private readonly firstErrors: ProbeFailure[] = [];
  private consecutiveErrors = 0;
  stoppedEarly: string | undefined;
  /** The default count this kind shortened to, to fit the run's time bound (sampleBudget.ts). */
  shortenedTo: number | undefined;
  private readonly cold: ColdRecorder | undefined;
  readonly serverTime: ServerTimeRecorder | undefined;
  readonly rows: RowsRecorder | undefined;
  /** What the duration kinds (`load`, `schedule`) add to the measurement. */
  readonly figures: { load?: LoadFigures; schedule?: ScheduleFigures } = {};

  readonly target: string;
  readonly kind: ProbeKind;
  readonly reused: string[];
  private readonly sampleCap: number;
  private readonly maxConsecutiveErrors: number;

  constructor(options: MeasurementOptions) {
    this.target = options.target;
    this.kind = options.kind;
    this.reused = options.reused;
    this.sampleCap = options.sampleCap;
    this.maxConsecutiveErrors = options.maxConsecutiveErrors;
    this.cold = options.coldMode ? new ColdRecorder(options.coldMode, options.sampleCap) : undefined;
    this.serverTime = options.serverTime;
    this.rows = options.rows;
  }

  /** True the first time it is asked: the sample event that carries the unmeasured reasons. */
  firstReasons(): boolean {
    if (this.reasonsSent) return false;
    this.reasonsSent = true;
    return true;
  }

  /**
   * `inFlight`: another sample's answer may be on its way (sampleLoop.ts), so nothing that takes
   * long runs now: the latency batch waits for tidy().
   */
  recordSuccess(
    warmup: boolean,
    atUs: number,
    timing: SampleTiming,
    coldPair?: SampleTiming['cold'],
    inFlight = false,
  ): void {
    const { us, connectUs, dnsUs, tcpUs, tlsUs, tlsResumed, unmeasured, wire } = timing;
    this.consecutiveErrors = 0;
    const latency = warmup ? this.warm : this.measured;
    if (inFlight) latency.recordHeld(us);
    else latency.record(us);
    // A target's first answer, often a warm-up one, says how many rows it holds.
    if (timing.rows !== undefined) this.rows?.counted(timing.rows);
    if (warmup) return;
    if (timing.firstRowUs !== undefined) this.rows?.record(timing.firstRowUs, us);
    this.wire.record(wire, timing.wireUnmeasured);
    this.serverTime?.record(timing.serverUs);
    if (coldPair) this.cold?.record(atUs, us, connectUs, coldPair);
    // Events from a runner of an earlier version carry no handshakeUs: connect minus the steps seen.
    const handshakeUs =
      timing.handshakeUs ??
      (connectUs !== undefined && tcpUs !== undefined
        ? Math.max(0, connectUs - (dnsUs ?? 0) - tcpUs - (tlsUs ?? 0))
        : undefined);
    if (connectUs !== undefined) {
      this.connectPhase.record(connectUs);
      this.firstQueryPhase.record(us - connectUs);
      if (dnsUs !== undefined) this.dnsPhase.record(dnsUs);
      if (tcpUs !== undefined) this.tcpPhase.record(tcpUs);
      if (tlsUs !== undefined) {
        this.tlsPhase.record(tlsUs);
        this.tlsHandshakes[tlsResumed ? 'resumed' : 'full'] += 1;
      }
      if (handshakeUs !== undefined) this.handshakePhase.record(handshakeUs);
      for (const [step, reason] of Object.entries(unmeasured ?? {}))
        this.unmeasured[step as ConnectStep] ??= reason;
    }
    // Past the cap nothing is built; below it the fields are set one by one (a spread of `{}` per
    // absent field would be an allocation per sample).
    if (this.samples.length >= this.sampleCap) {
      this.dropped += 1;
      return;
    }
    const record: SampleSuccess = { atUs, us: Math.max(1, Math.round(us)) };
    if (connectUs !== undefined) record.connectUs = connectUs;
    if (dnsUs !== undefined) record.dnsUs = dnsUs;
    if (tcpUs !== undefined) record.tcpUs = tcpUs;
    if (tlsUs !== undefined) {
      record.tlsUs = tlsUs;
      record.tlsResumed = tlsResumed === true;
    }
    if (connectUs !== undefined && handshakeUs !== undefined) record.handshakeUs = handshakeUs;
    if (wire) record.wire = wire;
    if (timing.conn !== undefined) record.conn = timing.conn;
    if (timing.cpuWaitUs !== undefined) record.cpuWaitUs = timing.cpuWaitUs;
    if (timing.cpuPressureUs !== undefined) record.cpuPressureUs = timing.cpuPressureUs;
    if (timing.serverUs !== undefined) record.serverUs = Math.round(timing.serverUs);
    if (timing.firstRowUs !== undefined) record.firstRowUs = Math.max(1, Math.round(timing.firstRowUs));
    if (timing.rows !== undefined) record.rows = timing.rows;
    this.samples.push(record);
  }

  /** Enters what recordSuccess held back (inFlight) into the histograms, once a batch is full. */
  tidy(): void {
    this.measured.flushIfFull();
    this.warm.flushIfFull();
    this.serverTime?.tidy();
    this.rows?.tidy();
  }

  /** `failedAfterUs`: how long the sample ran until it failed, when the caller timed it. */
  recordFailure(warmup: boolean, atUs: number, failure: ProbeFailure, failedAfterUs?: number): void {
    this.consecutiveErrors += 1;
    (warmup ? this.warm : this.measured).recordError();
    this.errorsByClass[failure.class] = (this.errorsByClass[failure.class] ?? 0) + 1;
    if (this.firstErrors.length < FIRST_ERRORS_KEPT) this.firstErrors.push(failure);
    if (!warmup)
      this.keep(
        // A runner's event may carry anything: only a real duration is kept.
        typeof failedAfterUs === 'number' && Number.isFinite(failedAfterUs)
          ? { atUs, error: failure.class, failedAfterUs: Math.max(0, Math.round(failedAfterUs)) }
          : { atUs, error: failure.class },
      );
    this.decideToStop(failure);
  }

  /** Marks the target stopped for this kind because of a failure outside any sample. */
  stop(reason: string, failure?: ProbeFailure): void {
    this.stoppedEarly ??= reason;
    if (failure && this.firstErrors.length < FIRST_ERRORS_KEPT) this.firstErrors.push(failure);
  }

  toMeasurement(): Measurement {
    const stats = this.measured.summary();
    const neverSucceeded = stats.count === 0 && this.warm.moments.count === 0;
    return {
      target: this.target,
      kind: this.kind,
      stats,
      histogram: encodeHistogram(this.measured.histogram, this.measured.moments),
      warmup: this.warm.summary(),
      samples: { cap: this.sampleCap, dropped: this.dropped, values: this.samples },
      errorsByClass: { ...this.errorsByClass },
      firstErrors: [...this.firstErrors],
      failed: stats.count === 0 && (stats.errors > 0 || (neverSucceeded && this.firstErrors.length > 0)),
      ...(this.connectPhase.moments.count > 0
        ? {
            phases: {
              connect: this.connectPhase.summary(),
              firstQuery: this.firstQueryPhase.summary(),
              ...(this.dnsPhase.moments.count > 0 ? { dns: this.dnsPhase.summary() } : {}),
              ...(this.tcpPhase.moments.count > 0 ? { tcp: this.tcpPhase.summary() } : {}),
              ...(this.tlsPhase.moments.count > 0 ? { tls: this.tlsPhase.summary() } : {}),
              ...(this.handshakePhase.moments.count > 0 ? { handshake: this.handshakePhase.summary() } : {}),
              ...(Object.keys(this.unmeasured).length > 0 ? { unmeasured: { ...this.unmeasured } } : {}),
              ...(this.tlsPhase.moments.count > 0 ? { tlsHandshakes: { ...this.tlsHandshakes } } : {}),
            },
          }
        : {}),
      ...this.wire.figures(),
      ...(this.stoppedEarly ? { stoppedEarly: this.stoppedEarly } : {}),
      ...(this.shortenedTo !== undefined ? { shortenedTo: this.shortenedTo } : {}),
      reused: this.reused,
      ...(this.cold ? { cold: this.cold.figures() } : {}),
      ...(this.serverTime ? { serverTime: this.serverTime.figure() } : {}),
      ...this.rowsFigure(),
      ...this.figures,
    };
  }

  private rowsFigure(): Pick<Measurement, 'rows'> {
    const rows = this.rows?.figure();
    return rows ? { rows } : {};
  }

  private keep(sample: SampleRecord): void {
    if (this.samples.length < this.sampleCap) this.samples.push(sample);
    else this.dropped += 1;
  }

  private decideToStop(failure: ProbeFailure): void {
    if (this.measured.moments.count + this.warm.moments.count > 0) return;
    if (HOPELESS.has(failure.class)) {
      this.stoppedEarly = `stopped after a ${failure.class} error: retrying would fail the same way`;
    } else if (this.consecutiveErrors >= this.maxConsecutiveErrors) {
      this.stoppedEarly = `stopped after ${this.consecutiveErrors} consecutive errors and no success`;
    }
  }
}
