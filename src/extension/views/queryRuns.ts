/** Which saved runs probed a query from the editor (LensMemory answers): views keep them apart. */
import type * as vscode from 'vscode';

export interface QueryRuns {
  isQueryRun(runId: string): boolean;
  readonly onDidChange: vscode.Event<void>;
}
