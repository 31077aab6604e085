import type { Database as BunDatabase, SQLQueryBindings, Statement } from "bun:sqlite";
import type { Changes, Database, SqlValue, TurnMode } from "./database";
import { currentScope, runInScope, type TransactionScope, withSavepoint } from "./transaction-scope";

/**
 * The embedded engine: one bun:sqlite connection, statements compiled once and kept (Bun's
 * own cache holds only 20, fewer than the product uses, and recompiling cost ≈15 µs a
 * request). Queries run synchronously underneath; the promise is the shared interface.
 *
 * One connection means one transaction at a time: while one is open, queries from other
 * work wait for it to end instead of slipping into it (their writes would commit or roll
 * back with it).
 */
export class SqliteDatabase implements Database {
  readonly engine = "sqlite" as const;
  readonly isShared = false;
  /** Each SQL text compiled once; `mayWrite`: anything but a SELECT may change rows. */
  private readonly statements = new Map<string, { statement: Statement; mayWrite: boolean }>();
  /**
   * Statements run that may have changed rows. On an exclusive connection this is the whole
   * change story and costs nothing to read, where `total_changes()` is a query per cached read.
   */
  private writes = 0;
  /** Settles when the open transaction ends; null while none is open. */
  private turn: Promise<void> | null = null;

  /**
   * `isExclusive`: the connection holds the file alone (locking_mode=EXCLUSIVE), so no other
   * connection can change it and this connection's own count of changes is the whole story.
   */
  constructor(
    readonly connection: BunDatabase,
    private readonly isExclusive = false,
  ) {}

  private prepared(sql: string): Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = { statement: this.connection.prepare(sql), mayWrite: !/^\s*select\b/i.test(sql) };
      this.statements.set(sql, prepared);
    }
    // Counted before running: a statement that fails half-way may still have changed rows.
    if (prepared.mayWrite) this.writes++;
    return prepared.statement;
  }

  private async waitTurn(): Promise<void> {
    while (this.turn !== null && !currentScope(this)) await this.turn;
  }

  async get<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    if (this.turn !== null) await this.waitTurn();
    return (this.prepared(sql).get(...(params as SQLQueryBindings[])) as Row | null) ?? undefined;
  }

  async all<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    if (this.turn !== null) await this.waitTurn();
    return this.prepared(sql).all(...(params as SQLQueryBindings[])) as Row[];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<Changes> {
    if (this.turn !== null) await this.waitTurn();
    const { changes } = this.prepared(sql).run(...(params as SQLQueryBindings[]));
    return { changes };
  }

  async exec(sql: string): Promise<void> {
    if (this.turn !== null) await this.waitTurn();
    this.writes++;
    this.connection.run(sql);
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const scope = currentScope<null>(this);
    if (scope) return withSavepoint(scope, (sql) => this.exec(sql), work);
    while (this.turn !== null) await this.turn;
    let endTurn = () => {};
    this.turn = new Promise((resolve) => {
      endTurn = resolve;
    });
    const own: TransactionScope<null> = { owner: this, handle: null, open: true, savepoints: 0 };
    try {
      // IMMEDIATE takes the write lock at once: a reader upgrading to a writer later could
      // meet another process's writer (the operator CLI) and fail instead of waiting.
      this.connection.run("BEGIN IMMEDIATE");
      try {
        const result = await runInScope(own, work);
        this.connection.run("COMMIT");
        return result;
      } catch (error) {
        if (this.connection.inTransaction) this.connection.run("ROLLBACK");
        throw error;
      }
    } finally {
      own.open = false;
      this.turn = null;
      endTurn();
    }
  }

  /** One connection, one transaction at a time: every transaction already takes turns, shared or not. */
  inTurn<T>(_name: string, work: () => Promise<T>, _mode?: TurnMode): Promise<T> {
    return this.transaction(work);
  }

  changeVersion(): number {
    // Holding the file alone, only this connection's own statements can change it.
    if (this.isExclusive) return this.writes;
    // total_changes: every row this connection wrote; data_version: moves when another
    // connection commits.
    const own = this.prepared("SELECT total_changes() AS v").get() as { v: number };
    const others = this.prepared("PRAGMA data_version").get() as { data_version: number };
    return own.v + others.data_version;
  }

  async close(): Promise<void> {
    for (const { statement } of this.statements.values()) statement.finalize();
    this.statements.clear();
    this.connection.close();
  }
}
