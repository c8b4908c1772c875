import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { elapsedUs } from '../../src/core/clock';

test('elapsedUs rounds to the nearest microsecond, halves up, as BigInt division does', () => {
  // The definition, in BigInts: what elapsedUs computed before it rounded in doubles.
  const exact = (startNs: bigint, endNs: bigint) => Number((endNs - startNs + 500n) / 1000n);
  fc.assert(
    fc.property(
      fc.bigInt({ min: 0n, max: 10n ** 18n }),
      // Spans up to ~104 days (2^53 ns), and the halves that rounding turns on.
      fc.oneof(
        fc.bigInt({ min: 0n, max: 2n ** 53n }),
        fc.bigInt({ min: 0n, max: 10n ** 9n }).map((us) => us * 1000n + 500n),
      ),
      (startNs, spanNs) =>
        assert.equal(elapsedUs(startNs, startNs + spanNs), exact(startNs, startNs + spanNs)),
    ),
    { numRuns: 20_000 },
  );
  assert.equal(elapsedUs(0n, 1_499n), 1);
  assert.equal(elapsedUs(0n, 1_500n), 2);
  assert.equal(elapsedUs(7n, 7n), 0);
});
