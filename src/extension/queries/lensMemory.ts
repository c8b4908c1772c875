/**
 * What "Probe this query" remembers per workspace (workspaceState, never secrets): the last figures
 * of each statement, the sample values of its parameters, the targets last picked per kind of
 * statement (targetChoice.ts's key), and which saved runs were a query's: their failures are the
 * query's, so the Targets view and the status bar do not read them as the target's.
 */
import * as vscode from 'vscode';
import { trimRecords, type LensRecord } from './lensText';

const RECORDS = 'dbprobe.queryLens.records';
const SAMPLES = 'dbprobe.queryLens.samples';
const TARGETS = 'dbprobe.queryLens.targets.';
const QUERY_RUNS = 'dbprobe.queryLens.runs';
/** Statements remembered per workspace; the oldest are forgotten first. */
const KEEP = 200;
/** Query runs remembered, newest kept: ten times the runs a workspace keeps by default (dbprobe.keepRuns). */
const KEEP_RUN_IDS = 1000;

export class LensMemory implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  record(key: string): LensRecord | undefined {
    return this.state.get<Record<string, LensRecord>>(RECORDS)?.[key];
  }

  async remember(key: string, record: LensRecord): Promise<void> {
    const records = { ...this.state.get<Record<string, LensRecord>>(RECORDS), [key]: record };
    await this.state.update(RECORDS, trimRecords(records, KEEP));
    this.changed.fire();
  }

  samples(key: string): Record<string, string> {
    return this.state.get<Record<string, Record<string, string>>>(SAMPLES)?.[key] ?? {};
  }

  async rememberSamples(key: string, values: Record<string, string>): Promise<void> {
    const all = { ...this.state.get<Record<string, Record<string, string>>>(SAMPLES) };
    delete all[key];
    // Insertion order is age order: drop the oldest past KEEP.
    const kept = Object.entries({ ...all, [key]: values }).slice(-KEEP);
    await this.state.update(SAMPLES, Object.fromEntries(kept));
  }

  targets(memoryKey: string): string[] | undefined {
    return this.state.get<string[]>(TARGETS + memoryKey);
  }

  async rememberTargets(memoryKey: string, names: string[]): Promise<void> {
    await this.state.update(TARGETS + memoryKey, names);
  }

  /** True for a saved run that probed a query from the editor rather than the targets' own workloads. */
  isQueryRun(runId: string): boolean {
    return this.state.get<string[]>(QUERY_RUNS)?.includes(runId) ?? false;
  }

  async rememberQueryRun(runId: string): Promise<void> {
    const ids = (this.state.get<string[]>(QUERY_RUNS) ?? []).filter((id) => id !== runId);
    await this.state.update(QUERY_RUNS, [...ids, runId].slice(-KEEP_RUN_IDS));
    this.changed.fire();
  }

  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
