import postgres from "postgres";
import type { Changes, Database, SqlValue } from "./database";
import { currentScope, runInScope, type TransactionScope } from "./transaction-scope";

type Sql = postgres.Sql;
type Runner = Pick<Sql, "unsafe">;
type TransactionSql = postgres.TransactionSql;

type Prepared = { text: string; isWrite: boolean };

/** A transaction PostgreSQL gave up for a conflict or deadlock; running it again is the cure. */
const retryableCodes = new Set(["40001", "40P01"]);
const maxAttempts = 12;

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

  constructor(url: string, options: { max?: number } = {}) {
    this.sql = postgres(url, {
      max: options.max ?? 10,
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

  private runner(): Runner {
    return currentScope<Runner>(this)?.handle ?? this.sql;
  }

  private async query<Row>(sql: string, params: readonly SqlValue[]) {
    const { text, isWrite } = this.statementOf(sql);
    const rows = await this.runner().unsafe<Row[]>(
      text,
      params.map(toParameter) as postgres.ParameterOrJSON<never>[],
      {
        prepare: true,
      },
    );
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
    await this.runner().unsafe(sql);
    this.writes += 1;
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    const scope = currentScope<TransactionSql>(this);
    // A savepoint through the driver's own scope: an error caught inside it then stays
    // there, where a bare SAVEPOINT would still fail the whole transaction at its end.
    if (scope) return (await scope.handle.savepoint((handle) => this.inScope(handle, work))) as T;
    return this.retried(() => this.begin("isolation level serializable", work));
  }

  /**
   * READ COMMITTED under a transaction-scoped advisory lock named `name`: every statement
   * after the lock sees what the previous holder committed, and holders take turns across
   * all instances. For claiming batches of work (a renewal pass's due subscriptions),
   * whose wide reads would make SERIALIZABLE transactions of several instances abort each
   * other over and over.
   */
  async inTurn<T>(name: string, work: () => Promise<T>): Promise<T> {
    const scope = currentScope<TransactionSql>(this);
    if (scope) return this.transaction(work);
    return this.retried(() =>
      this.begin("isolation level read committed", async () => {
        await this.get("SELECT pg_advisory_xact_lock(hashtext(?))", [name]);
        return work();
      }),
    );
  }

  private async retried<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await run();
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (!code || !retryableCodes.has(code) || attempt >= maxAttempts) throw error;
        // Spread the retries so the same two transactions do not meet again at once.
        await Bun.sleep(Math.random() * 5 * attempt);
      }
    }
  }

  /**
   * A READ COMMITTED transaction, for work that waits on a lock and must then see what the
   * holder committed (migrations: the second instance to start finds them applied).
   */
  readCommitted<T>(work: () => Promise<T>): Promise<T> {
    return this.begin("isolation level read committed", work);
  }

  private async begin<T>(mode: string, work: () => Promise<T>): Promise<T> {
    return (await this.sql.begin(mode, (handle) => this.inScope(handle, work))) as T;
  }

  private inScope<T>(handle: TransactionSql, work: () => Promise<T>): Promise<T> {
    const own: TransactionScope<TransactionSql> = { owner: this, handle, open: true, savepoints: 0 };
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
