/**
 * Saved runs: one JSON result per file in the workspace's storage (the extension's global storage
 * when no folder is open), plus an index of summaries so lists never load whole results. Writes are
 * queued, so two runs finishing together cannot lose each other's index entry.
 */
import * as vscode from 'vscode';
import { isRunId } from '../../shared/messages';
import { redactDeep, type Redactor } from '../../shared/redact';
import type { RunResult } from '../../shared/result';
import { retain, summarize, type RunSummary } from './runSummary';

const INDEX = 'index.json';

export class RunStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly folder: vscode.Uri;
  private index?: Promise<RunSummary[]>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    context: vscode.ExtensionContext,
    private readonly keep: () => number,
  ) {
    this.folder = vscode.Uri.joinPath(context.storageUri ?? context.globalStorageUri, 'runs');
  }

  list(): Promise<RunSummary[]> {
    this.index ??= this.readIndex();
    return this.index;
  }

  async latest(): Promise<RunSummary | undefined> {
    return (await this.list())[0];
  }

  /** Saves a result after one more redaction pass with the run's secrets: storage is a boundary. */
  save(result: RunResult, redactor: Redactor): Promise<RunSummary> {
    return this.serial(async () => {
      const clean = redactDeep(result, redactor);
      await vscode.workspace.fs.createDirectory(this.folder);
      await this.write(`${clean.id}.json`, JSON.stringify(clean));
      const summary = summarize(clean);
      const { kept, dropped } = retain(
        [summary, ...(await this.list()).filter((s) => s.id !== clean.id)],
        this.keep(),
      );
      for (const old of dropped) await this.deleteFile(`${old.id}.json`);
      await this.writeIndex(kept);
      return summary;
    });
  }

  async load(id: string): Promise<RunResult | undefined> {
    if (!isRunId(id)) return undefined;
    try {
      const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.folder, `${id}.json`));
      const parsed = JSON.parse(new TextDecoder().decode(bytes)) as RunResult;
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
      const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.folder, INDEX));
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

  private write(name: string, text: string): Thenable<void> {
    return vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(this.folder, name),
      new TextEncoder().encode(text),
    );
  }

  private async deleteFile(name: string): Promise<void> {
    try {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(this.folder, name));
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
