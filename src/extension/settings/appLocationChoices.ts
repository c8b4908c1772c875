/**
 * The first-run question, "where does your app run?", without VS Code: its choices, when it is asked,
 * and the setting each answer writes. The answer is kept in the one app location
 * (`dbprobe.appRttMs`, or `dbprobe.appLocation` for a runner place; appLocation.ts reads both), in the
 * workspace's settings, so every surface answers for it; "I don't know" is remembered too (in the
 * workspace's state), so the question is asked once per workspace.
 */
import { APP_PLACE_SETTING, APP_RTT_SETTING } from '../queries/appLocation';

/** The workspaceState key that records the question was answered (any answer, "I don't know" too). */
export const APP_LOCATION_ASKED = 'dbprobe.appLocationAsked';

export type AppLocationAnswer = { kind: 'rtt'; rttMs: number } | { kind: 'place' } | { kind: 'unknown' };

export interface AppLocationChoice {
  label: string;
  detail: string;
  answer: AppLocationAnswer;
}

export const APP_LOCATION_CHOICES: readonly AppLocationChoice[] = [
  {
    label: 'Same region as the database',
    detail: '~1 ms RTT: a server or function in the database’s cloud region',
    answer: { kind: 'rtt', rttMs: 1 },
  },
  { label: 'Nearby', detail: '~10 ms RTT: a neighbouring region', answer: { kind: 'rtt', rttMs: 10 } },
  {
    label: 'Far',
    detail: '~40-80 ms RTT: another continent (60 ms is taken)',
    answer: { kind: 'rtt', rttMs: 60 },
  },
  {
    label: 'Where a runner runs…',
    detail: 'a runner place: its own runs measure the RTT to each target',
    answer: { kind: 'place' },
  },
  {
    label: 'I don’t know',
    detail: 'the verdict names where the answer changes; set dbprobe.appRttMs later',
    answer: { kind: 'unknown' },
  },
];

/**
 * Whether to ask: not once it was answered in this workspace, and not when an app location is set
 * already at any level (user, workspace, folder): the user has said where the app runs.
 */
export function shouldAskAppLocation(asked: boolean, set: (setting: string) => boolean): boolean {
  return !asked && !set(APP_RTT_SETTING) && !set(APP_PLACE_SETTING);
}

/** The setting an answer writes (in the workspace), or none for "I don't know". */
export function answerSetting(
  answer: AppLocationAnswer,
  place?: string,
): { setting: string; value: number | string } | undefined {
  if (answer.kind === 'rtt') return { setting: APP_RTT_SETTING, value: answer.rttMs };
  if (answer.kind === 'place' && place !== undefined && place.trim() !== '')
    return { setting: APP_PLACE_SETTING, value: place.trim() };
  return undefined;
}
