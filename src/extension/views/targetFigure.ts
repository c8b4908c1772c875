/**
 * The Targets view's figure for one target: its kind named ("warm query", "new connection"), and
 * first the figure at where the app runs (`dbprobe.appRttMs`, the one app location) when it is set,
 * then the one measured here: "warm ≈ 30.4 ms from app · 0.410 ms here", the kind in a word and the
 * figure before anything else, so a 270 px sidebar shows both beside the longest target name; the
 * tooltip has the whole words ("warm query p50 ≈ 30.4 ms from your app (30 ms RTT, 1 round trip)").
 * Pure: the view passes the last run's figures.
 */
import type { ProbeKind } from '../../shared/plan';
import { projectAt } from '../../shared/projection';
import type { AppLocation } from '../queries/appLocation';
import { formatMs } from '../runs/runSummary';

const KIND_WORDS: Record<ProbeKind, string> = {
  subsequent: 'warm query',
  initial: 'new connection',
  cold: 'cold start',
  load: 'under load',
  schedule: 'at a fixed rate',
};

/** The kind in one word, for the row (the tooltip names it in full). */
const KIND_WORD: Record<ProbeKind, string> = {
  subsequent: 'warm',
  initial: 'connect',
  cold: 'cold',
  load: 'load',
  schedule: 'schedule',
};

export interface TargetFigureInput {
  kind: ProbeKind;
  p50Us: number;
  /** The kind's local part and counted turns (src/shared/projection.ts), when the run counted them. */
  projection?: { localUs: number; turns: number };
}

export interface TargetFigure {
  /** The view row's words. */
  short: string;
  /** The tooltip's line, with how the projection was made. */
  long: string;
}

export function targetFigure(figure: TargetFigureInput, location: AppLocation | undefined): TargetFigure {
  const kind = KIND_WORDS[figure.kind];
  const word = KIND_WORD[figure.kind];
  const here = formatMs(figure.p50Us);
  if (location?.kind === 'here')
    return {
      short: `${word} ${here} (app runs here)`,
      long: `${kind} p50 ${here}, measured here, where your app runs`,
    };
  if (location?.kind === 'rtt' && figure.projection) {
    const at = formatMs(projectAt(figure.projection, location.rttMs * 1000));
    const trips = `${figure.projection.turns} round trip${figure.projection.turns === 1 ? '' : 's'}`;
    return {
      short: `${word} ≈ ${at} from app · ${here} here`,
      long: `${kind} p50 ≈ ${at} from your app (${location.rttMs} ms RTT, ${trips}), ${here} measured here`,
    };
  }
  const why =
    location?.kind === 'rtt'
      ? 'no projection: the last run did not count its round trips'
      : location?.kind === 'place'
        ? `the ${location.place} runner's projection is in the run panel`
        : 'set where your app runs (dbprobe.appRttMs) to see the figure there';
  return { short: `${word} ${here} here`, long: `${kind} p50 ${here}, measured here; ${why}` };
}
