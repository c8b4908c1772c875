/**
 * The words every editor surface (CodeLens, heartbeat) uses for a figure projected to where the app
 * runs, so the same projection reads the same everywhere: "≈ 3.2 ms from your app (3 ms RTT)", or
 * with a runner place "≈ 2.3 ms from your app (eu-west runner, 2.1 ms RTT)"; with the round trips
 * counted, "(30 ms RTT, 1 round trip)". Pure: any room may use it.
 */
export function fromYourApp(projected: string, rtt: string, place?: string, turns?: number): string {
  const trips = turns !== undefined ? `, ${turns} round trip${turns === 1 ? '' : 's'}` : '';
  return `≈ ${projected} from your app (${place !== undefined ? `${place} runner, ` : ''}${rtt} RTT${trips})`;
}
