import { Database as BunDatabase } from "bun:sqlite";
import { describe, expect, test } from "vitest";
import { statement } from "../../../../db/database";
import { SqliteDatabase } from "../../../../db/sqlite";

const exclusive = () => new SqliteDatabase(new BunDatabase(":memory:"), true);

describe("the change version read caches trust", () => {
  test("on an exclusive connection it moves with every statement that may write, and not with reads", async () => {
    const database = exclusive();
    await database.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
    let version = database.changeVersion();
    const moved = () => {
      const now = database.changeVersion();
      const didMove = now !== version;
      version = now;
      return didMove;
    };
    await statement(database, "INSERT INTO t (v) VALUES (?)").run("a");
    expect(moved()).toBe(true);
    await statement<{ v: string }>(database, "SELECT v FROM t").all();
    await statement<{ v: string }>(database, "  select v from t where id = ?").get(1);
    expect(moved()).toBe(false);
    // A write that returns rows is read through get(), and still counts.
    await statement<{ id: number }>(database, "INSERT INTO t (v) VALUES (?) RETURNING id").get("b");
    expect(moved()).toBe(true);
    await statement(database, "UPDATE t SET v = 'c' WHERE id = 1").run();
    expect(moved()).toBe(true);
    await database.transaction(async () => {
      await statement(database, "DELETE FROM t WHERE id = 2").run();
    });
    expect(moved()).toBe(true);
    await database.close();
  });
});
