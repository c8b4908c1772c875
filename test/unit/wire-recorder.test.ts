import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { WireRecorder } from '../../src/core/wireFigures';

/** The figure's definition, written out: the lower median of the values as a sorted list. */
const lowerMedian = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;

test('each wire count is the lower median of the samples that carried it', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ roundTrips: fc.integer({ min: 0, max: 6 }), bytesSent: fc.nat(100_000) }), {
        minLength: 1,
        maxLength: 300,
      }),
      fc.array(fc.nat(40), { maxLength: 50 }),
      (samples, cpu) => {
        const recorder = new WireRecorder();
        for (const sample of samples) recorder.record(sample, undefined);
        // A count only some samples carry: its median is over those samples alone.
        for (const clientCpuUs of cpu) recorder.record({ clientCpuUs }, undefined);
        const { wire } = recorder.figures();
        assert.equal(wire?.roundTrips, lowerMedian(samples.map((s) => s.roundTrips)));
        assert.equal(wire?.bytesSent, lowerMedian(samples.map((s) => s.bytesSent)));
        assert.equal(wire?.clientCpuUs, cpu.length > 0 ? lowerMedian(cpu) : undefined);
      },
    ),
    { numRuns: 300 },
  );
});

test('a warm run of equal counts reads that count, and names the most frequent TLS version', () => {
  const recorder = new WireRecorder();
  for (let i = 0; i < 1_000; i++)
    recorder.record(
      { roundTrips: 1, bytesReceived: 60, tlsVersion: i % 3 === 0 ? 'TLSv1.2' : 'TLSv1.3' },
      undefined,
    );
  assert.deepEqual(recorder.figures().wire, { roundTrips: 1, bytesReceived: 60, tlsVersion: 'TLSv1.3' });
});
