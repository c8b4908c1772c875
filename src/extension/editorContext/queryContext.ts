/**
 * Keeps `dbprobe.canProbeQuery` true exactly where "Probe This Query" applies: an editor in a language
 * the CodeLens reads, with a selection or with the cursor on a statement it offers. The menus, the
 * palette and the keybinding read it, so the command shows only where it can do something.
 * Statements are found as the CodeLens finds them, once per document version, at most every
 * UPDATE_MS while the cursor moves.
 */
import * as vscode from 'vscode';
import { CAN_PROBE_QUERY_KEY, QUERY_LANGUAGES_KEY } from '../contextKeys';
import { MAX_SCAN_CHARS, findStatements } from '../queries/statements';
import type { FoundStatement } from '../queries/statements';
import { QUERY_LANGUAGES } from '../queries/queryLensProvider';
import { statementAt } from './statementAt';

/** The statements of a document as the CodeLens finds them (its first MAX_SCAN_CHARS). */
export function documentStatements(document: vscode.TextDocument): FoundStatement[] {
  // One character past the bound, so the scan knows the document goes on (as the CodeLens reads it).
  const end = document.positionAt(MAX_SCAN_CHARS + 1);
  return findStatements(
    document.getText(new vscode.Range(new vscode.Position(0, 0), end)),
    document.languageId,
  ).statements;
}

/** Cursor moves closer together than this are judged once (typing moves the cursor too). */
const UPDATE_MS = 150;

export class QueryContext implements vscode.Disposable {
  private last: { uri: string; version: number; statements: readonly FoundStatement[] } | undefined;
  private value: boolean | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    void vscode.commands.executeCommand('setContext', QUERY_LANGUAGES_KEY, QUERY_LANGUAGES);
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor(() => this.schedule()),
      vscode.window.onDidChangeTextEditorSelection(() => this.schedule()),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (this.last?.uri === d.uri.toString()) this.last = undefined;
      }),
    ];
    this.schedule();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.set(this.applies(vscode.window.activeTextEditor));
    }, UPDATE_MS);
  }

  private applies(editor: vscode.TextEditor | undefined): boolean {
    if (!editor || !QUERY_LANGUAGES.includes(editor.document.languageId)) return false;
    if (!editor.selection.isEmpty) return true;
    const offset = editor.document.offsetAt(editor.selection.active);
    return statementAt(this.statementsOf(editor.document), offset) !== undefined;
  }

  /** The document's statements; scanned again only when it changed. */
  private statementsOf(document: vscode.TextDocument): readonly FoundStatement[] {
    const uri = document.uri.toString();
    if (this.last?.uri === uri && this.last.version === document.version) return this.last.statements;
    const statements = documentStatements(document);
    this.last = { uri, version: document.version, statements };
    return statements;
  }

  private set(value: boolean): void {
    if (value === this.value) return;
    this.value = value;
    void vscode.commands.executeCommand('setContext', CAN_PROBE_QUERY_KEY, value);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subscriptions) s.dispose();
  }
}
