/**
 * The CodeLens line that says where a query's time from the app goes ("≈ 23.4 ms from your app on
 * testbed-pg: 20.1 in the database, 3.0 distance (1 round trip x 3 ms), 0.3 rest"), read back as its
 * figures' text, and the figures it should show for a saved result: for the e2e tests that check a
 * lens against the run it was built from.
 */
import assert from 'node:assert/strict';
import { shortMs } from '../../src/extension/queries/lensText';
import { splitRun } from '../../src/shared/querySplit';
import type { RunResult } from '../../src/shared/result';

/** A lens line of either form the answer takes: the split one, or the plain one (split in the hover). */
export const ANSWER_LINE =
  /^≈ [\d.]+ ms from your app( \(\d+ ms RTT, \d+ round trips?\) · [\d.]+ ms here on \S+|( on \S+)?: -?[\d.]+ in the database, [\d.]+ distance \(\d+ round trips? x \d+ ms\).*)/;

/** The split line's figures by name, as written; fails when the title is not a split line. */
export function lensSplitFigures(title: string): Record<string, string> {
  const found = title.match(
    /^≈ (?<total>\S+) ms from your app(?: on \S+)?: (?<database>\S+) in the database, (?<distance>\S+) distance \((?<turns>\d+) round trips? x (?<rtt>\S+) ms\)(?:, (?<client>\S+) client)?(?:, (?<rest>\S+) rest)?( · just now)?$/,
  );
  assert.ok(found?.groups, `a split line: ${title}`);
  return Object.fromEntries(Object.entries(found.groups).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
}

/**
 * What the lens should say of a saved run: its warm query's split at the app's RTT, each figure as the
 * line writes it; undefined when the run has no database time (the line is then the plain one).
 */
export function expectedSplitFigures(
  result: RunResult,
  target: string,
  appRttMs: number,
): Record<string, string> | undefined {
  const at = splitRun(result.measurements, [target], appRttMs * 1000).splits.find(
    (s) => s.kind === 'subsequent',
  );
  if (at?.parts.database === undefined) return undefined;
  const n = (us: number) => shortMs(us).replace(/ ms$/, '');
  const rest = at.parts.rest ?? 0;
  return {
    total: n(at.p50Us),
    database: n(at.parts.database),
    distance: n(at.parts.distance!),
    turns: String(at.turns),
    rtt: String(appRttMs),
    ...(at.parts.client !== undefined ? { client: n(at.parts.client) } : {}),
    ...(Math.abs(rest) >= 50 ? { rest: n(rest) } : {}),
  };
}
