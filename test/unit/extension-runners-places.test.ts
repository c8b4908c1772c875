import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOCAL_PLACE_ID, placeChoices, runnerLabels } from '../../src/extension/runners/placeChoices';
import type { RunnerSetting } from '../../src/extension/runners/runnerSettings';

const RUNNERS: RunnerSetting[] = [
  { name: 'us-east-1', url: 'https://use1.example.com', env: {} },
  { name: 'eu', url: 'https://eu.example.com:8443', env: {} },
];
const withToken = (name: string) => name !== 'eu';

test('places: this machine first, then every runner; this machine alone is ticked the first time', () => {
  const choices = placeChoices(RUNNERS, undefined, withToken);
  assert.deepEqual(
    choices.map((c) => [c.id, c.picked]),
    [
      [LOCAL_PLACE_ID, true],
      ['runner:us-east-1', false],
      ['runner:eu', false],
    ],
  );
  assert.equal(choices[1]?.description, 'use1.example.com');
  assert.equal(choices[1]?.runner, RUNNERS[0]);
  assert.equal(choices[1]?.detail, undefined);
  assert.match(choices[2]?.detail ?? '', /No token.*Add Runner/);
});

test('places: the last choice is ticked again, ignoring runners since removed', () => {
  const again = placeChoices(RUNNERS, ['local', 'runner:eu', 'runner:gone'], withToken);
  assert.deepEqual(
    again.filter((c) => c.picked).map((c) => c.id),
    ['local', 'runner:eu'],
  );
  const onlyGone = placeChoices(RUNNERS, ['runner:gone'], withToken);
  assert.deepEqual(
    onlyGone.filter((c) => c.picked).map((c) => c.id),
    ['local'],
  );
});

test('runner labels: the region, else the name; the name added where two would read alike', () => {
  assert.deepEqual(
    runnerLabels(
      [
        { name: 'a', region: 'us-east-1' },
        { name: 'b', region: 'unknown' },
        { name: 'c' },
        { name: 'd', region: 'eu-west-1' },
        { name: 'e', region: 'eu-west-1' },
        { name: 'f', region: 'this machine' },
      ],
      ['this machine'],
    ),
    ['us-east-1', 'b', 'c', 'eu-west-1 (d)', 'eu-west-1 (e)', 'this machine (f)'],
  );
});
