import postgres from "postgres";
import { defaultRetryPolicy, isConflict, type RetryPolicy, retryOnConflict } from "./conflict-retry";
import type { Changes, Database, SqlValue, TurnMode } from "./database";
import { currentScope, runInScope, type TransactionScope } from "./transaction-scope";

type Sql = postgres.Sql;
type Runner = Pick<Sql, "unsafe">;
type TransactionSql = postgres.TransactionSql;

type Prepared = { text: string; isWrite: boolean };

/**
 * One run of a top-level transaction. `conflict`: a serialization failure or deadlock met
 * anywhere inside it, savepoints included, even one a caller caught and went on from:
 * the run then ends in a rollback and the transaction runs again, never commits.
 */
type Run = { conflict: unknown };
type Handle = { sql: TransactionSql; run: Run };

/**
 * `?` → `$1, $2, …` (and `?3` → `$3`), outside quoted strings, quoted names and comments: the queries are
 * written once, in SQLite's placeholder style.
 */
export function numberPlaceholders(sql: string): string {
  let out = "";
  let index = 0;
  let i = 0;
  while (i < sql.length) {
    const char = sql[i] as string;
    if (char === "'" || char === '"') {
      const end = sql.indexOf(char, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop;
    } else if (char === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (char === "?") {
      // `?3` names its parameter (SQLite's numbered form, for one value used twice).
      const number = /^\d+/.exec(sql.slice(i + 1))?.[0];
      if (number) {
        out += `$${number}`;
        i += 1 + number.length;
      } else {
        index += 1;
        out += `$${index}`;
        i += 1;
      }
    } else {
      out += char;
      i += 1;
    }
  }
  return out;
}

/** Flags are integers in both schemas; a JS boolean sent as a parameter is 1 or 0 here too. */
const toParameter = (value: SqlValue) => (value === true ? 1 : value === false ? 0 : value);

/**
 * PostgreSQL behind the shared interface (DESIGN §15): a pool of connections, every
 * statement prepared on the connection it runs on, and the row values SQLite gives:
 * 64-bit integers and sums as numbers (milliseconds and kopecks are far inside 2^53),
 * booleans as 1 and 0.
 */
export class PostgresDatabase implements Database {
  readonly engine = "postgres" as const;
  readonly isShared = true;
  readonly sql: Sql;
  private readonly prepared = new Map<string, Prepared>();
  private writes = 0;

  private readonly retryPolicy: RetryPolicy;

  /** `retry`: how conflicts are run again (DESIGN §15); tests shorten it. */
  constructor(url: string, options: { max?: number; retry?: RetryPolicy } = {}) {
    this.retryPolicy = options.retry ?? defaultRetryPolicy;
    const unfilledPipeline = { max_pipeline: Number.MAX_SAFE_INTEGER };
    this.sql = postgres(url, {
      max: options.max ?? 10,
      // postgres.js 3.4.9 reserves a transaction's connection only if, after writing BEGIN,
      // the connection's pipeline still has room (porsager/postgres#823, #1189): a BEGIN
      // that filled a busy connection's 100 left the connection in the pool, and the
      // transaction failed with UNSAFE_TRANSACTION (a 500 on a first payment, once in 200
      // parallel ones on a loaded machine). A pipeline that never fills keeps the check
      // from cutting the reservation off; queries still wait for their turn on the socket.
      // The driver reads the option; its types do not name it.
      ...unfilledPipeline,
      onnotice: () => {},
      // Idle connections are closed, so a stopped database is noticed and a pool shrinks.
      idle_timeout: 60,
      connect_timeout: 10,
      types: {
        bigint: { to: 20, from: [20, 1700], serialize: (value: unknown) => String(value), parse: Number },
        boolean: {
          to: 16,
          from: [16],
          serialize: (value: unknown) => (value === true || value === 1 ? "t" : "f"),
          parse: (value: string) => (value === "t" ? 1 : 0),
        },
      },
    });
  }

  private statementOf(sql: string): Prepared {
    let prepared = this.prepared.get(sql);
    if (!prepared) {
      prepared = {
        text: numberPlaceholders(sql),
        isWrite: /^\s*(?:INSERT|UPDATE|DELETE|WITH)\b/i.test(sql),
      };
      this.prepared.set(sql, prepared);
    }
    return prepared;
  }

  /**
   * Sends through the open transaction, or alone. A statement sent alone is its own
   * transaction: one PostgreSQL gave up for a conflict or deadlock (any statement may meet
   * a deadlock, and any under a SERIALIZABLE default) changed nothing and is sent again.
   * One inside a transaction marks the run, whatever the caller does with the error.
   */
  private async send<Result>(send: (runner: Runner) => Promise<Result>): Promise<Result> {
    const scope = currentScope<Handle>(this);
    if (!scope) return retryOnConflict(() => send(this.sql), this.retryPolicy);
    try {
      return await send(scope.handle.sql);
    } catch (error) {
      if (isConflict(error)) scope.handle.run.conflict ??= error;
      throw error;
    }
  }

  private async query<Row>(sql: string, params: readonly SqlValue[]) {
    const { text, isWrite } = this.statementOf(sql);
    const values = params.map(toParameter) as postgres.ParameterOrJSON<never>[];
    const rows = await this.send((runner) => runner.unsafe<Row[]>(text, values, { prepare: true }));
    if (isWrite) this.writes += 1;
    return rows;
  }

  async get<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    const rows = await this.query<Row>(sql, params);
    return rows[0];
  }

  async all<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return [...(await this.query<Row>(sql, params))];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<Changes> {
    const rows = await this.query(sql, params);
    return { changes: rows.count };
  }

  async exec(sql: string): Promise<void> {
    await this.send((runner) => runner.unsafe(sql));
    this.writes += 1;
  }

  /** SERIALIZABLE, run again from the start on a conflict (conflict-retry.ts says how often). */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const scope = currentScope<Handle>(this);
    if (scope) return this.savepoint(scope.handle, work);
    return retryOnConflict(() => this.begin("isolation level serializable", work), this.retryPolicy);
  }

  /**
   * A savepoint through the driver's own scope: an error caught inside it then stays
   * there, where a bare SAVEPOINT would still fail the whole transaction at its end. A
   * conflict is different: PostgreSQL would let the transaction go on and commit after a
   * rollback to the savepoint, and a caller may catch the error (a message that could not
   * be queued is left out), so it marks the whole run, which then runs again.
   */
  private async savepoint<T>(outer: Handle, work: () => Promise<T>): Promise<T> {
    try {
      return (await outer.sql.savepoint((sql) => this.inScope({ sql, run: outer.run }, work))) as T;
    } catch (error) {
      if (isConflict(error)) outer.run.conflict ??= error;
      throw error;
    }
  }

  /**
   * READ COMMITTED under a transaction-scoped advisory lock named `name`: every statement
   * after the lock sees what the previous holder committed, and holders take turns across
   * all instances (shared holders only with exclusive ones). For claiming batches of work (a renewal pass's due subscriptions),
   * whose wide reads would make SERIALIZABLE transactions of several instances abort each
   * other over and over.
   */
  async inTurn<T>(name: string, work: () => Promise<T>, mode: TurnMode = "exclusive"): Promise<T> {
    const scope = currentScope<Handle>(this);
    if (scope) return this.transaction(work);
    const lock =
      mode === "shared"
        ? "SELECT pg_advisory_xact_lock_shared(hashtext(?))"
        : "SELECT pg_advisory_xact_lock(hashtext(?))";
    // READ COMMITTED meets no serialization failure of its own, but its row locks can
    // deadlock (40P01), or a SERIALIZABLE default make it one: run again like any other.
    return retryOnConflict(
      () =>
        this.begin("isolation level read committed", async () => {
          await this.get(lock, [name]);
          return work();
        }),
      this.retryPolicy,
    );
  }

  /**
   * A READ COMMITTED transaction, for work that waits on a lock and must then see what the
   * holder committed (migrations: the second instance to start finds them applied). Not
   * run again on a deadlock: its caller counts what it applied, and a start that fails
   * says so.
   */
  readCommitted<T>(work: () => Promise<T>): Promise<T> {
    return this.begin("isolation level read committed", work);
  }

  /** One run: a conflict marked inside it (even one the work caught) rolls it back to be run again. */
  private async begin<T>(mode: string, work: () => Promise<T>): Promise<T> {
    return (await this.sql.begin(mode, async (sql) => {
      const run: Run = { conflict: undefined };
      const result = await this.inScope({ sql, run }, work);
      if (run.conflict !== undefined) throw run.conflict;
      return result;
    })) as T;
  }

  private inScope<T>(handle: Handle, work: () => Promise<T>): Promise<T> {
    const own: TransactionScope<Handle> = { owner: this, handle, open: true, savepoints: 0 };
    return runInScope(own, work).finally(() => {
      own.open = false;
    });
  }

  changeVersion(): number {
    return this.writes;
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }
}
