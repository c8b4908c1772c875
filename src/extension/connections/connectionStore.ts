/**
 * Connections: the connection string in SecretStorage, and only its name and driver in globalState
 * (SecretStorage cannot list its keys in VS Code 1.90, and the names are not secret).
 */
import type * as vscode from 'vscode';
import type { Redactor } from '../../shared/redact';

export interface StoredConnection {
  name: string;
  driver: string;
}

const INDEX_KEY = 'dbprobe.connections';
const secretKey = (name: string) => `dbprobe.connection/${name}`;

export class ConnectionStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  list(): StoredConnection[] {
    const value = this.state.get<unknown>(INDEX_KEY);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (c): c is StoredConnection =>
        typeof c === 'object' && c !== null && typeof c.name === 'string' && typeof c.driver === 'string',
    );
  }

  find(name: string): StoredConnection | undefined {
    return this.list().find((c) => c.name === name);
  }

  get(name: string): Thenable<string | undefined> {
    return this.secrets.get(secretKey(name));
  }

  async save(connection: StoredConnection, connectionString: string): Promise<void> {
    await this.secrets.store(secretKey(connection.name), connectionString);
    const others = this.list().filter((c) => c.name !== connection.name);
    await this.state.update(INDEX_KEY, [...others, connection]);
  }

  /**
   * Teaches a Redactor every stored connection string. Views and exports of runs saved in an earlier
   * session redact with it, though this session never resolved those secrets.
   */
  async teach(redactor: Redactor): Promise<Redactor> {
    const values = await Promise.all(this.list().map((c) => this.get(c.name)));
    for (const value of values) redactor.addSecret(value);
    return redactor;
  }

  async remove(name: string): Promise<void> {
    await this.secrets.delete(secretKey(name));
    await this.state.update(
      INDEX_KEY,
      this.list().filter((c) => c.name !== name),
    );
  }
}
