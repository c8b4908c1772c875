/**
 * A load level's client verdict (src/core/load/levelClient.ts): the open model names the client only
 * when its busy thread's own loop fell behind the schedule; the closed model on the CPU share alone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { levelClientVerdict, type OpenStarts } from '../../src/core/load/levelClient';

function starts(over: Partial<OpenStarts>): OpenStarts {
  return {
    asked: 40_000,
    started: 40_000,
    late: 0,
    lateAfterUs: 1_000,
    dropped: 0,
    askedRate: 20_000,
    achievedRate: 20_000,
    latenessP50Us: 20,
    latenessP99Us: 300,
    latenessMaxUs: 900,
    loopLate: 0,
    ...over,
  };
}

test('closed model: 90% CPU or more is client-limited, less is not', () => {
  assert.equal(levelClientVerdict(95, 'one thread'), 'client-limited: one thread at 95% CPU');
  assert.equal(levelClientVerdict(60, 'one thread'), undefined);
});

test('a host that takes the CPU away: a loop busy 90% of the time or more is client-limited, and says so', () => {
  // Steal on a VM: the thread ran 70% of the wall, its loop never waited for I/O.
  assert.equal(
    levelClientVerdict(70.1, 'one thread', undefined, 99.6),
    'client-limited: one thread busy 100% of the time at 70% CPU (the host took the rest)',
  );
  assert.equal(levelClientVerdict(70.1, 'one thread', undefined, 60), undefined);
  // The CPU decides first, and the loop alone does not make an open level the client's.
  assert.equal(levelClientVerdict(95, 'one thread', undefined, 99), 'client-limited: one thread at 95% CPU');
  assert.equal(levelClientVerdict(70, 'one thread', starts({}), 99), undefined);
  assert.match(
    levelClientVerdict(70, 'one thread', starts({ latenessP99Us: 7_000_000, loopLate: 60_000 }), 99) ?? '',
    /^client-limited: one thread busy 99% of the time at 70% CPU \(the host took the rest\); its schedule fell behind/,
  );
});

test('open model: a busy thread whose own loop fell behind is client-limited, with the reason', () => {
  const behind = starts({ achievedRate: 11_322, latenessP99Us: 1_498_687, loopLate: 33_600 });
  assert.equal(
    levelClientVerdict(98.5, 'one thread', behind),
    'client-limited: one thread at 99% CPU; its schedule fell behind (84% of starts reached over 1 ms late by its own loop; start lateness p99 1,499 ms, 11,322/s of 20,000/s achieved)',
  );
  // Late starts alone (rate reached) are enough when the loop was behind for most of them.
  assert.match(
    levelClientVerdict(97, 'one thread', starts({ latenessP99Us: 2_300, loopLate: 30_000 })) ?? '',
    /start lateness p99 2\.3 ms, 20,000\/s of 20,000\/s achieved\)$/,
  );
});

test('open model: a thread at capacity whose loop left a backlog is client-limited though the rate was kept', () => {
  // Few starts late, but by far more than host preemption makes: the loop could not catch up.
  const atCapacity = starts({ achievedRate: 19_998, latenessP99Us: 181_647, loopLate: 1_200 });
  assert.match(
    levelClientVerdict(99.2, 'one thread', atCapacity) ?? '',
    /^client-limited: one thread at 99% CPU; its schedule fell behind \(3% of starts .* p99 182 ms, 19,998\/s of 20,000\/s achieved\)$/,
  );
  // The same lateness with under 1% of starts late by the loop: the waits were elsewhere.
  assert.equal(levelClientVerdict(99.2, 'one thread', { ...atCapacity, loopLate: 300 }), undefined);
});

test('open model: busy but on schedule, or behind with the loop on time, or idle: not the client', () => {
  // The pacer's spin keeps the CPU high at 2,000/s and up: schedule kept, nothing to say.
  assert.equal(levelClientVerdict(98, 'one thread', starts({})), undefined);
  // Host preemption now and then: a few starts late, not most.
  assert.equal(
    levelClientVerdict(98, 'one thread', starts({ latenessP99Us: 8_300, loopLate: 900 })),
    undefined,
  );
  // Behind while the pacer was on time: the starts waited for busy connections (the database's).
  assert.equal(
    levelClientVerdict(
      99,
      'one thread',
      starts({ achievedRate: 12_000, latenessP99Us: 900_000, loopLate: 10 }),
    ),
    undefined,
  );
  // Loop behind but the thread mostly idle: not its own work.
  assert.equal(
    levelClientVerdict(
      40,
      'one thread',
      starts({ achievedRate: 12_000, latenessP99Us: 900_000, loopLate: 39_000 }),
    ),
    undefined,
  );
});
