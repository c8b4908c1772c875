import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nameHash, targetSlots } from '../../webview/targetColours';

test('a target keeps its colour slot whatever else the run holds and in whatever order', () => {
  const five = ['local-pg', 'local-pg-tls', 'local-mysql', 'local-redis', 'planetscale-http'];
  const slots = targetSlots(five, 12);
  assert.equal(new Set(slots.values()).size, five.length, 'five targets, five colours');
  // The same names in another order: the same slots.
  assert.deepEqual(targetSlots([...five].reverse(), 12), slots);
  // A name alone (no collision) sits where its hash points, so it keeps that slot in any run where
  // no other name takes it first.
  for (const name of five) assert.equal(targetSlots([name], 12).get(name), nameHash(name) % 12);
  const withAnother = targetSlots([...five.slice(0, 2), 'neon-http'], 12);
  for (const name of five.slice(0, 2)) {
    if (withAnother.get('neon-http') !== slots.get(name))
      assert.equal(withAnother.get(name), slots.get(name));
  }
});

test('two names that hash to one slot get two colours while the palette has room', () => {
  // Find two names colliding in a palette of 3 (deterministic: the hash is fixed).
  const names = Array.from({ length: 20 }, (_, i) => `t${i}`);
  const first = names[0]!;
  const clash = names.find((n) => n !== first && nameHash(n) % 3 === nameHash(first) % 3);
  assert.ok(clash, 'a colliding name exists among 20');
  const slots = targetSlots([first, clash], 3);
  assert.notEqual(slots.get(first), slots.get(clash));
  // More names than colours: every name still gets a slot within the palette.
  const many = targetSlots(names, 3);
  assert.equal(many.size, names.length);
  for (const slot of many.values()) assert.ok(slot >= 0 && slot < 3);
});

test('while a hue is free, two targets do not get two shades of one hue', () => {
  // Palette of 12 = 6 hues x 2 shades (slot i and i + 6 share a hue).
  const names = Array.from({ length: 40 }, (_, i) => `target-${i}`);
  for (let start = 0; start + 6 <= names.length; start += 6) {
    const six = names.slice(start, start + 6);
    const hues = [...targetSlots(six, 12, 6).values()].map((slot) => slot % 6);
    assert.equal(new Set(hues).size, 6, `six targets, six hues: ${six.join(', ')}`);
  }
});
