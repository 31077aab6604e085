import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { statement } from "../../../db/database";
import { PostgresDatabase } from "../../../db/postgres";
import { testDatabaseUrl } from "../../helpers/test-database";

/**
 * DESIGN §15 on the query layer itself: whatever PostgreSQL gives up for a conflict
 * (40001) or a deadlock (40P01) is run again from the start, in a transaction or alone,
 * and a conflict a caller caught never lets the transaction commit without its part.
 */
let url: string;
let database: PostgresDatabase;
beforeAll(async () => {
  url = (await testDatabaseUrl()) as string;
  database = new PostgresDatabase(url, { max: 4 });
  await database.exec(`CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
    CREATE TABLE entries (id SERIAL PRIMARY KEY, note TEXT NOT NULL)`);
});
afterAll(() => database.close());

const reset = () =>
  database.exec(`TRUNCATE entries; DELETE FROM accounts; INSERT INTO accounts VALUES (1, 100), (2, 100)`);
const notes = async () =>
  (await database.all<{ note: string }>("SELECT note FROM entries ORDER BY id")).map((row) => row.note);

/** Resolves once `count` callers have arrived: both transactions read before either writes. */
function barrier(count: number) {
  let arrived = 0;
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return () => {
    arrived += 1;
    if (arrived === count) open();
    return opened;
  };
}

describe("on PostgreSQL, a transaction that meets a conflict", () => {
  test("is run again from the start when the database reports a serialization failure", async () => {
    await reset();
    // Write skew: each reads both balances and takes from its own account only if the
    // total stays above 100. Run side by side, both would pass; serially, only one.
    const bothRead = barrier(2);
    let runs = 0;
    const withdraw = (id: number) =>
      database.transaction(async () => {
        runs += 1;
        const total = await statement<{ total: number }>(
          database,
          "SELECT SUM(balance) AS total FROM accounts",
        ).get();
        if (runs <= 2) await bothRead();
        if ((total?.total ?? 0) - 90 < 100) return "refused";
        await statement(database, "UPDATE accounts SET balance = balance - 90 WHERE id = ?").run(id);
        return "withdrawn";
      });
    const outcomes = await Promise.all([withdraw(1), withdraw(2)]);
    expect(outcomes.sort()).toEqual(["refused", "withdrawn"]);
    // The loser's first run met the winner's commit (40001) and ran again, seeing it.
    expect(runs).toBe(3);
    const total = await statement<{ total: number }>(
      database,
      "SELECT SUM(balance) AS total FROM accounts",
    ).get();
    expect(total?.total).toBe(110);
  });

  test("is run again, not committed without it, when a savepoint's conflict was caught by its caller", async () => {
    await reset();
    let runs = 0;
    await database.transaction(async () => {
      runs += 1;
      await statement(database, "INSERT INTO entries (note) VALUES (?)").run(`outer ${runs}`);
      try {
        // As the mail queue does: a nested transaction whose failure is logged and left out.
        await database.transaction(async () => {
          await statement(database, "INSERT INTO entries (note) VALUES (?)").run(`inner ${runs}`);
          if (runs === 1) throw Object.assign(new Error("could not serialize access"), { code: "40001" });
        });
      } catch {
        // left out
      }
    });
    expect(runs).toBe(2);
    expect(await notes()).toEqual(["outer 2", "inner 2"]);
  });

  test("is run again when a statement's conflict inside it was caught by the work", async () => {
    await reset();
    let runs = 0;
    await database.transaction(async () => {
      runs += 1;
      await statement(database, "INSERT INTO entries (note) VALUES (?)").run(`run ${runs}`);
      if (runs === 1) {
        // A real error from the server, with a conflict's SQLSTATE.
        await database
          .get("DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END $$")
          .catch(() => undefined);
      }
    });
    expect(runs).toBe(2);
    expect(await notes()).toEqual(["run 2"]);
  });

  test("a statement sent alone that meets a deadlock (40P01) is sent again", async () => {
    await reset();
    // PostgreSQL looks for a deadlock once, when a wait has lasted deadlock_timeout, and
    // fails the session that finds it. The statement sent alone waits first and looks after
    // 3 s (time enough, on a busy machine, for the other session to close the circle);
    // the other looks only after a minute.
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    const other = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET deadlock_timeout = '3s'`);
    const alone = new PostgresDatabase(url, { max: 1 });
    try {
      const holder = await other.reserve();
      await holder`BEGIN`;
      await holder`SET LOCAL deadlock_timeout = '60s'`;
      await holder`UPDATE accounts SET balance = balance + 1 WHERE id = 2`;
      // Locks row 1, then waits for row 2, which the other session holds.
      const sent = statement(alone, "UPDATE accounts SET balance = balance + 10 WHERE id IN (1, 2)").run();
      const waiting = () => admin<{ count: number }[]>`SELECT COUNT(*)::int AS count FROM pg_stat_activity
        WHERE wait_event_type = 'Lock' AND query LIKE 'UPDATE accounts SET balance = balance + 10%'`;
      while ((await waiting())[0]?.count !== 1) await Bun.sleep(10);
      // Now the other session wants row 1: a deadlock.
      const closing = holder`UPDATE accounts SET balance = balance + 1 WHERE id = 1`.then(
        () => holder`COMMIT`,
        () => holder`ROLLBACK`,
      );
      const outcome = await sent.catch((error: unknown) => error);
      await closing;
      holder.release();
      expect(outcome).toEqual({ changes: 2 });
    } finally {
      await Promise.all([alone.close(), other.end({ timeout: 1 }), admin.end({ timeout: 1 })]);
    }
    const balances = await database.all<{ id: number; balance: number }>(
      "SELECT id, balance FROM accounts ORDER BY id",
    );
    // Both changes kept: the other session's, then the statement sent again.
    expect(balances).toEqual([
      { id: 1, balance: 111 },
      { id: 2, balance: 111 },
    ]);
  });
});
