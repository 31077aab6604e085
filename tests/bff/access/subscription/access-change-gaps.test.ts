import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readAllowList } from "../../../../bff/modules/access/subscription/allowlist/allowlist-delta";
import { migrate } from "../../../../bff/platform/database";
import { statement } from "../../../../db/database";
import { PostgresDatabase } from "../../../../db/postgres";
import { testDatabaseUrl } from "../../../helpers/test-database";

/**
 * DESIGN §8 on PostgreSQL: versions of the allow-list's change log are handed out before
 * commit. An agent's cursor never passes a version still held by an open transaction, and
 * passes one rolled back as soon as that transaction has ended (not 30 s later).
 */
let database: PostgresDatabase;
beforeAll(async () => {
  database = new PostgresDatabase((await testDatabaseUrl()) as string, { max: 4 });
  await migrate(database);
});
afterAll(() => database.close());

const newestVersion = async () =>
  (await statement<{ v: number }>(database, "SELECT MAX(version) AS v FROM access_changes").get())?.v ?? 0;
// As the triggers write it: changed_at on the database's clock.
const logChange = () =>
  statement(
    database,
    "INSERT INTO access_changes (user_id, node_tag, changed_at) VALUES (NULL, 'k-test', access_change_now())",
  ).run();

/** A transaction that takes a version and waits, open, until told to roll back. */
function openTransactionHoldingAVersion() {
  let rollBack = () => {};
  const released = new Promise<void>((resolve) => {
    rollBack = resolve;
  });
  let tookVersion = () => {};
  const holding = new Promise<void>((resolve) => {
    tookVersion = resolve;
  });
  const done = database
    .readCommitted(async () => {
      await statement(
        database,
        "INSERT INTO access_changes (user_id, node_tag, changed_at) VALUES (NULL, 'k-open', access_change_now())",
      ).run();
      tookVersion();
      await released;
      throw new Error("rolled back on purpose");
    })
    .catch(() => undefined);
  return { holding, rollBack, done };
}

describe("on PostgreSQL, the allow-list cursor and versions of transactions still open", () => {
  test("stops before a version an open transaction holds, and passes it at once after its rollback", async () => {
    await logChange();
    const since = await newestVersion();
    const open = openTransactionHoldingAVersion();
    await open.holding;
    await logChange(); // commits with a version after the open one's
    const after = await newestVersion();
    // A wall clock at the rows' own time: the 30 s rule alone would never pass the gap, so
    // only the open-transaction rule can.
    const wallNow = Date.now();
    const whileOpen = await readAllowList(database, since, 0, wallNow);
    expect(whileOpen.answer.version).toBe(since);
    expect(whileOpen.isPending).toBe(true);
    open.rollBack();
    await open.done;
    // Another test's transaction on this database that began earlier holds it back too
    // (only ever later, never wrongly), so ask until it has moved on.
    let version = since;
    for (let tries = 0; tries < 600 && version !== after; tries += 1) {
      version = (await readAllowList(database, since, 0, wallNow)).answer.version;
      if (version !== after) await Bun.sleep(50);
    }
    expect(version).toBe(after);
  });
});
