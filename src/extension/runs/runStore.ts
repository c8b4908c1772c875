/**
 * Saved runs: one JSON result per file in the workspace's storage (the extension's global storage
 * when no folder is open), plus an index of summaries so lists never load whole results. A run group
 * (one plan from several places) adds a `group-<id>.json` beside its runs. Writes are queued, so two
 * runs finishing together cannot lose each other's index entry.
 */
import * as vscode from 'vscode';
import { isRunId } from '../../shared/messages';
import { redactDeep, type Redactor } from '../../shared/redact';
import type { RunResult } from '../../shared/result';
import { isRunGroup, memberRunIds, type RunGroup } from './runGroup';
import { judgedAgain, retain, summarize, type RunSummary } from './runSummary';
import { storageIoFor, type StorageIo } from './storageIo';
import type { RunVerdict, RunVerdicts, VerdictJudge } from './runVerdicts';

const INDEX = 'index.json';
const groupFile = (id: string) => `group-${id}.json`;

export class RunStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly folder: vscode.Uri;
  private readonly io: StorageIo;
  private index?: Promise<RunSummary[]>;
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * The text of the run saved last: the panel that shows it reads it next, at once, and a read from
   * disk would wait its turn behind everything else a finished run sets off in the extension host.
   */
  private lastSaved?: { id: string; text: string };
  /** Counts rejudge() calls: a newer one supersedes those under way. */
  private judging = 0;

  constructor(
    context: vscode.ExtensionContext,
    private readonly keep: () => number,
  ) {
    this.folder = vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'runs');
    this.io = storageIoFor(this.folder);
  }

  list(): Promise<RunSummary[]> {
    this.index ??= this.readIndex();
    return this.index;
  }

  /**
   * Forgets the index read so far and tells the views: another extension host (the previous window's,
   * saving a run as it closed) wrote it since.
   */
  reread(): void {
    // Queued behind any write of this window's own, which would otherwise put the old index back.
    void this.serial(async () => {
      this.index = undefined;
    }).then(() => this.changed.fire());
  }

  async latest(): Promise<RunSummary | undefined> {
    return (await this.list())[0];
  }

  /**
   * Saves a result after one more redaction pass with the run's secrets: storage is a boundary.
   * `verdicts` maps a run id to its first verdict line (judged where the engine's code is loaded,
   * runVerdicts.ts), with the app location it was judged for.
   */
  save(result: RunResult, redactor: Redactor, verdicts?: RunVerdicts): Promise<RunSummary> {
    return this.serial(async () => {
      const [summary] = await this.store([result], redactor, undefined, verdicts);
      return summary!;
    });
  }

  /** Saves every place's result and the group that ties them together, in one index update. */
  saveGroup(
    group: RunGroup,
    results: RunResult[],
    redactor: Redactor,
    verdicts?: RunVerdicts,
  ): Promise<RunSummary[]> {
    return this.serial(async () => {
      const clean = redactDeep(group, redactor);
      await this.io.createDirectory(this.folder);
      await this.write(groupFile(clean.id), JSON.stringify(clean));
      return this.store(results, redactor, clean, verdicts);
    });
  }

  private async store(
    results: RunResult[],
    redactor: Redactor,
    group?: RunGroup,
    verdicts?: RunVerdicts,
  ): Promise<RunSummary[]> {
    await this.io.createDirectory(this.folder);
    const summaries: RunSummary[] = [];
    for (const result of results) {
      const clean = redactDeep(result, redactor);
      const text = JSON.stringify(clean);
      await this.write(`${clean.id}.json`, text);
      this.lastSaved = { id: clean.id, text };
      const place = group?.places.find((p) => p.runId === clean.id);
      summaries.push({
        ...summarize(clean, redactVerdict(verdicts?.lines.get(clean.id), redactor)),
        ...(verdicts ? { verdictFor: verdicts.key } : {}),
        ...(group && place ? { group: { id: group.id, place: place.label } } : {}),
      });
    }
    const ids = new Set(summaries.map((s) => s.id));
    const { kept, dropped } = retain(
      [...summaries, ...(await this.list()).filter((s) => !ids.has(s.id))],
      this.keep(),
    );
    for (const old of dropped) await this.deleteFile(`${old.id}.json`);
    // A group goes when the last of its runs ages out.
    const orphaned = new Set(dropped.flatMap((s) => (s.group ? [s.group.id] : [])));
    for (const id of orphaned)
      if (!kept.some((s) => s.group?.id === id)) await this.deleteFile(groupFile(id));
    await this.writeIndex(kept);
    return summaries;
  }

  /** Whether a saved row's verdict must be judged again for the app location `key` (judgedAgain). */
  async staleVerdicts(key: string): Promise<boolean> {
    return (await this.list()).some((s) => judgedAgain(s, key));
  }

  /**
   * Judges every saved run again for the app location now set (the Runs view's rows and the status
   * bar lead with its first line), newest first, one run at a time so the editor keeps its turn; the
   * newest row is written at once, the rest together. A later call (the location changed again)
   * stops an earlier one.
   */
  async rejudge(judge: VerdictJudge): Promise<void> {
    const generation = ++this.judging;
    const summaries = (await this.list()).filter((s) => judgedAgain(s, judge.key));
    const found = new Map<string, RunVerdict | undefined>();
    for (const [i, summary] of summaries.entries()) {
      const result = await this.load(summary.id);
      if (generation !== this.judging) return;
      const kept = summary.verdict
        ? { line: summary.verdict, short: summary.verdictShort ?? summary.verdict }
        : undefined;
      found.set(summary.id, result ? judge.first(result) : kept);
      if (i === 0 || i === summaries.length - 1) await this.applyVerdicts(found, judge.key);
      await new Promise((resolve) => setImmediate(resolve));
      if (generation !== this.judging) return;
    }
  }

  private applyVerdicts(verdicts: ReadonlyMap<string, RunVerdict | undefined>, key: string): Promise<void> {
    return this.serial(async () => {
      const updated = (await this.list()).map((s) => {
        if (!verdicts.has(s.id)) return s;
        const { verdict: _old, verdictShort: _oldShort, ...rest } = s;
        const verdict = verdicts.get(s.id);
        return {
          ...rest,
          ...(verdict ? { verdict: verdict.line, verdictShort: verdict.short } : {}),
          verdictFor: key,
        };
      });
      await this.writeIndex(updated);
    });
  }

  async loadGroup(id: string): Promise<RunGroup | undefined> {
    if (!isRunId(id)) return undefined;
    try {
      const bytes = await this.io.readFile(vscode.Uri.joinPath(this.folder, groupFile(id)));
      const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
      return isRunGroup(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  /** A group and the results it holds, in place order (places without a result have none). */
  async loadGroupResults(
    id: string,
  ): Promise<{ group: RunGroup; results: Map<string, RunResult> } | undefined> {
    const group = await this.loadGroup(id);
    if (!group) return undefined;
    const results = new Map<string, RunResult>();
    for (const runId of memberRunIds(group)) {
      const result = await this.load(runId);
      if (result) results.set(runId, result);
    }
    return { group, results };
  }

  /** Deletes a group with every run it holds. */
  deleteGroup(id: string): Promise<void> {
    return this.serial(async () => {
      if (!isRunId(id)) return;
      const group = await this.loadGroup(id);
      const members = new Set([
        ...(group ? memberRunIds(group) : []),
        ...(await this.list()).filter((s) => s.group?.id === id).map((s) => s.id),
      ]);
      for (const runId of members) await this.deleteFile(`${runId}.json`);
      await this.deleteFile(groupFile(id));
      await this.writeIndex((await this.list()).filter((s) => !members.has(s.id)));
    });
  }

  async load(id: string): Promise<RunResult | undefined> {
    if (!isRunId(id)) return undefined;
    try {
      // Parsed anew each time, as from the file: no caller shares (or can change) another's copy.
      const text =
        this.lastSaved?.id === id
          ? this.lastSaved.text
          : new TextDecoder().decode(await this.io.readFile(vscode.Uri.joinPath(this.folder, `${id}.json`)));
      const parsed = JSON.parse(text) as RunResult;
      return parsed.schema === 'dbprobe.run/v1' ? parsed : undefined;
    } catch {
      return undefined;
    }
  }

  delete(id: string): Promise<void> {
    return this.serial(async () => {
      if (!isRunId(id)) return;
      await this.deleteFile(`${id}.json`);
      await this.writeIndex((await this.list()).filter((s) => s.id !== id));
    });
  }

  private async readIndex(): Promise<RunSummary[]> {
    try {
      const bytes = await this.io.readFile(vscode.Uri.joinPath(this.folder, INDEX));
      const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
      return Array.isArray(parsed) ? (parsed as RunSummary[]).filter((s) => isRunId(s?.id)) : [];
    } catch {
      return [];
    }
  }

  private async writeIndex(summaries: RunSummary[]): Promise<void> {
    this.index = Promise.resolve(summaries);
    await this.write(INDEX, JSON.stringify(summaries));
    this.changed.fire();
  }

  private write(name: string, text: string): Promise<void> {
    return this.io.writeFile(vscode.Uri.joinPath(this.folder, name), new TextEncoder().encode(text));
  }

  private async deleteFile(name: string): Promise<void> {
    if (this.lastSaved && name === `${this.lastSaved.id}.json`) this.lastSaved = undefined;
    try {
      await this.io.delete(vscode.Uri.joinPath(this.folder, name));
    } catch {
      // Already gone: the index is what matters.
    }
  }

  private serial<T>(job: () => Promise<T>): Promise<T> {
    const next = this.queue.then(job, job);
    this.queue = next.catch(() => undefined);
    return next;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** A verdict as storage keeps it: through the run's redactor, as everything saved is. */
function redactVerdict(verdict: RunVerdict | undefined, redactor: Redactor): RunVerdict | undefined {
  if (!verdict) return undefined;
  const line = redactor.redact(verdict.line);
  return line ? { line, short: redactor.redact(verdict.short) } : undefined;
}
