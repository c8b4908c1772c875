/**
 * The "where to run" step: this machine and every configured runner, several at once. Pure: which
 * places are offered and which are ticked (the last choice, else this machine alone).
 */
import type { RunnerSetting } from './runnerSettings';

export const LOCAL_PLACE_ID = 'local';

export interface PlaceChoice {
  /** `local`, or `runner:NAME`; what the workspace remembers between runs. */
  id: string;
  label: string;
  description: string;
  detail?: string;
  picked: boolean;
  runner?: RunnerSetting;
}

export function runnerPlaceId(name: string): string {
  return `runner:${name}`;
}

/**
 * @param remembered the ids picked last time in this workspace; ids of runners since removed are ignored.
 * @param hasToken whether SecretStorage holds the runner's token (a synced setting may arrive without).
 */
export function placeChoices(
  runners: readonly RunnerSetting[],
  remembered: readonly string[] | undefined,
  hasToken: (name: string) => boolean,
): PlaceChoice[] {
  const choices: PlaceChoice[] = [
    {
      id: LOCAL_PLACE_ID,
      label: '$(vm) This machine',
      description: 'the VS Code extension host',
      picked: false,
    },
    ...runners.map((runner): PlaceChoice => ({
      id: runnerPlaceId(runner.name),
      label: `$(cloud) ${runner.name}`,
      description: hostOf(runner.url),
      ...(hasToken(runner.name)
        ? {}
        : {
            detail: `No token in this VS Code's secret storage: run "DB Probe: Add Runner" for ${runner.name}`,
          }),
      picked: false,
      runner,
    })),
  ];
  const known = (remembered ?? []).filter((id) => choices.some((c) => c.id === id));
  const ticked = known.length > 0 ? known : [LOCAL_PLACE_ID];
  for (const choice of choices) choice.picked = ticked.includes(choice.id);
  return choices;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * What results from each runner are labelled with: its region (what a reader compares), else its
 * name; two runners in one region get their names added so the columns stay apart.
 */
export function runnerLabels(
  runners: readonly { name: string; region?: string }[],
  taken: readonly string[] = [],
): string[] {
  const base = runners.map((r) => (r.region && r.region !== 'unknown' ? r.region : r.name));
  return base.map((label, i) =>
    base.filter((l) => l === label).length > 1 || taken.includes(label)
      ? `${label} (${runners[i]?.name})`
      : label,
  );
}
