/**
 * What "Probe this query" remembers per workspace (workspaceState, never secrets): the last figures
 * of each statement, the sample values of its parameters, and the targets last picked per family.
 */
import * as vscode from 'vscode';
import type { QueryFamily } from './classify';
import { trimRecords, type LensRecord } from './lensText';

const RECORDS = 'dbprobe.queryLens.records';
const SAMPLES = 'dbprobe.queryLens.samples';
const TARGETS = 'dbprobe.queryLens.targets.';
/** Statements remembered per workspace; the oldest are forgotten first. */
const KEEP = 200;

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

  targets(family: QueryFamily): string[] | undefined {
    return this.state.get<string[]>(TARGETS + family);
  }

  async rememberTargets(family: QueryFamily, names: string[]): Promise<void> {
    await this.state.update(TARGETS + family, names);
  }

  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
