/**
 * Rebuilds a run result from the engine's events. A remote run streams events; when the stream
 * breaks before `done` (runner killed, network cut), this turns what arrived into a partial result
 * that every view can show. Histograms are rebuilt from the samples themselves, so they are exact.
 */
import { ERROR_HINTS } from '../shared/errors';
import type { ProbeEvent } from '../shared/events';
import type { ProbeKind } from '../shared/plan';
import { RESULT_SCHEMA, type RunHeader, type RunResult } from '../shared/result';
import { idleClientWatch } from './clientWatch';
import { KINDS } from './kinds/allKinds';
import { MeasurementState } from './measurementState';

export class ResultBuilder {
  private header: RunHeader | undefined;
  private final: RunResult | undefined;
  private readonly states = new Map<string, MeasurementState>();
  private lastAtUs = 0;

  add(event: ProbeEvent): void {
    switch (event.type) {
      case 'start':
        this.header = event.header;
        break;
      case 'sample': {
        this.lastAtUs = Math.max(this.lastAtUs, event.atUs + (event.us ?? 0));
        const state = this.state(event.target, event.kind);
        const warmup = event.phase === 'warmup';
        if (event.us !== undefined) {
          const {
            us,
            connectUs,
            dnsUs,
            tcpUs,
            tlsUs,
            handshakeUs,
            tlsResumed,
            unmeasured,
            wire,
            wireUnmeasured,
            conn,
            cpuWaitUs,
            cpuPressureUs,
            serverUs,
            firstRowUs,
            rows,
          } = event;
          state.recordSuccess(warmup, event.atUs, {
            conn,
            cpuWaitUs,
            cpuPressureUs,
            us,
            connectUs,
            dnsUs,
            tcpUs,
            tlsUs,
            handshakeUs,
            tlsResumed,
            unmeasured,
            wire,
            wireUnmeasured,
            serverUs,
            firstRowUs,
            rows,
          });
        } else {
          const errorClass = event.error ?? 'unknown';
          state.recordFailure(
            warmup,
            event.atUs,
            {
              class: errorClass,
              message: `${errorClass} error (the message was not received)`,
              hint: ERROR_HINTS[errorClass],
            },
            event.failedAfterUs,
          );
        }
        break;
      }
      case 'error':
        if (event.target && event.kind)
          this.state(event.target, event.kind).stop(`could not start: ${event.failure.class}`, event.failure);
        break;
      case 'done':
        this.final = event.result;
        break;
      case 'targetDone':
        break;
    }
  }

  get started(): boolean {
    return this.header !== undefined;
  }

  /** The complete result if `done` arrived; otherwise what the samples so far amount to. */
  build(stopReason: string): RunResult | undefined {
    if (this.final) return this.final;
    const header = this.header;
    if (!header) return undefined;
    return {
      schema: RESULT_SCHEMA,
      ...header,
      state: 'cancelled',
      durationUs: this.lastAtUs,
      measurements: [...this.states.values()].map((s) => s.toMeasurement()),
      client: idleClientWatch,
      stopReason,
    };
  }

  private state(target: string, kind: ProbeKind): MeasurementState {
    const key = `${kind}\u0000${target}`;
    let state = this.states.get(key);
    if (!state) {
      state = new MeasurementState({
        target,
        kind,
        sampleCap: this.header?.plan.sampleCap ?? 10_000,
        // Rebuilt from what happened: the engine already decided when a target stopped.
        maxConsecutiveErrors: Number.MAX_SAFE_INTEGER,
        reused: KINDS[kind].reused,
      });
      this.states.set(key, state);
    }
    return state;
  }
}
