/**
 * The DB Probe output channel. Every line passes the session's Redactor, which learns each secret as
 * it is resolved, so a connection string never reaches the log even inside a driver's error text.
 */
import * as vscode from 'vscode';
import { Redactor } from '../shared/redact';

export class Log implements vscode.Disposable {
  readonly redactor = new Redactor();
  private readonly channel = vscode.window.createOutputChannel('DB Probe', { log: true });

  info(message: string): void {
    this.write('info', message);
  }

  warn(message: string): void {
    this.write('warn', message);
  }

  error(message: string, error?: unknown): void {
    const detail = error === undefined ? '' : `: ${error instanceof Error ? error.message : String(error)}`;
    this.write('error', message + detail);
  }

  /**
   * Logging never throws: while the window closes, the channel's connection to the workbench is gone
   * ("Channel has been closed") and a line logged then must not stop a run from saving its result.
   */
  private write(level: 'info' | 'warn' | 'error', message: string): void {
    try {
      this.channel[level](this.redactor.redact(message));
    } catch {
      // The line is lost with the window; the work it describes goes on.
    }
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}

/** Text for a user-facing error: redacted, one line. */
export function describeError(error: unknown, redactor: Redactor): string {
  const text = error instanceof Error ? error.message : String(error);
  return redactor.redact(text.replace(/\s+/g, ' ').trim());
}
