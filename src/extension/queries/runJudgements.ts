/**
 * The shared judgement (src/shared/judgement/judgeRun.ts) of saved runs, for views that draw
 * synchronously (the CodeLens): a run is loaded once per app RTT, judged, kept, and `onResolved` is
 * called to redraw. Derived on read, so a changed `dbprobe.appRttMs` judges again at the new RTT.
 * Holds the few judgements the open editors need; the oldest are forgotten first. The judge is
 * handed in: the lens lives in the activation bundle, judgeRun in the body's (loaded on demand).
 */
import type { JudgeOptions, RunJudgement } from '../../shared/judgement/judgeRun';
import type { RunResult } from '../../shared/result';

export type Judge = (result: RunResult, options: JudgeOptions) => Promise<RunJudgement>;

const KEEP = 100;

export class RunJudgements {
  /** Per "runId\nappRttMs": the judgement, or null when the run could not be loaded. */
  private readonly found = new Map<string, RunJudgement | null>();
  private readonly pending = new Set<string>();
  private generation = 0;

  constructor(
    private readonly load: (id: string) => Promise<RunResult | undefined>,
    private readonly judge: Judge,
    private readonly onResolved: () => void,
    private readonly warn: (line: string) => void = () => undefined,
  ) {}

  /** The judgement now, or undefined until the run is loaded (the view redraws then); null: no run. */
  judgementOf(runId: string, appRttMs: number | undefined): RunJudgement | null | undefined {
    const key = `${runId}\n${appRttMs ?? ''}`;
    if (this.found.has(key)) return this.found.get(key);
    if (!this.pending.has(key)) void this.lookUp(runId, appRttMs, key);
    return undefined;
  }

  /** Forget every judgement: a run was deleted (or replaced). */
  clear(): void {
    this.generation++;
    this.found.clear();
    this.pending.clear();
  }

  private async lookUp(runId: string, appRttMs: number | undefined, key: string): Promise<void> {
    const generation = this.generation;
    this.pending.add(key);
    let judgement: RunJudgement | null = null;
    try {
      const result = await this.load(runId);
      if (result) judgement = await this.judge(result, appRttMs !== undefined ? { appRttMs } : {});
    } catch (error) {
      this.warn(`judging run ${runId}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (generation !== this.generation) return;
    this.pending.delete(key);
    this.found.set(key, judgement);
    if (this.found.size > KEEP) this.found.delete(this.found.keys().next().value!);
    this.onResolved();
  }
}
