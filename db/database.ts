/**
 * The one query layer both engines sit behind (DESIGN §15). Queries are written once, in
 * the SQL that SQLite and PostgreSQL both speak, with `?` placeholders; each engine keeps
 * its statements prepared (the PostgreSQL one numbers the placeholders). Where the engines
 * truly differ (search, locking, schema) the two texts sit side by side, chosen by
 * `database.engine`.
 *
 * Not a query builder: a builder compiles every query on every call, which costs more than
 * the whole SQLite read of a cabinet request (DESIGN §10's budget); prepared text does not.
 */
export type SqlValue = string | number | bigint | boolean | null | Uint8Array;

export type Changes = { changes: number };

export type Engine = "sqlite" | "postgres";

/** How a turn (Database.inTurn) is held: alone, or beside other shared holders. */
export type TurnMode = "exclusive" | "shared";

export interface Database {
  readonly engine: Engine;
  /**
   * Whether other processes write to the same data: then an in-memory cache of it may be
   * stale by whatever they wrote, and is kept no longer than a second (DESIGN §15).
   */
  readonly isShared: boolean;
  get<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined>;
  all<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  run(sql: string, params?: readonly SqlValue[]): Promise<Changes>;
  /**
   * Runs `work` as one transaction: every query on this database inside it (however deep
   * in the calls, found through the async context) is part of it. SQLite: BEGIN IMMEDIATE,
   * other work on the connection waits its turn. PostgreSQL: SERIALIZABLE, run again from
   * the start when the database reports a conflict, so `work` must only touch the
   * database (never a gateway or a mail server). A transaction inside another is a savepoint.
   */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /**
   * A transaction that takes turns with every other of the same `name`, on every instance,
   * and sees all they committed: for claiming batches of shared work. SQLite: an ordinary
   * transaction (there is one writer). PostgreSQL: READ COMMITTED under an advisory lock;
   * rows it claims must be locked by its own reads (FOR UPDATE, db/dialect.ts `skipLocked`).
   * `shared`: holders of a shared turn do not wait for one another, only for (and never
   * during) an exclusive one; for claims that already keep apart by their row locks.
   */
  inTurn<T>(name: string, work: () => Promise<T>, mode?: TurnMode): Promise<T>;
  /** Several statements without parameters: migrations and schema. */
  exec(sql: string): Promise<void>;
  /** Changes whenever this process (or, for SQLite, any connection) writes: read caches key on it. */
  changeVersion(): number;
  close(): Promise<void>;
}

/**
 * A statement with its parameters given positionally, as the queries are written:
 * `statement<Row, [number]>(db, "SELECT … WHERE id = ?").get(id)`.
 */
export function statement<Row = unknown, Params extends SqlValue[] = SqlValue[]>(
  database: Database,
  sql: string,
) {
  return {
    get: (...params: Params) => database.get<Row>(sql, params),
    all: (...params: Params) => database.all<Row>(sql, params),
    run: (...params: Params) => database.run(sql, params),
  };
}
