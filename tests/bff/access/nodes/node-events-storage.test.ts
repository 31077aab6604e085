import { describe, expect, test } from "vitest";
import { storeNodeEvents } from "../../../../bff/modules/access/nodes/node-events";
import { nodeByAuthorization } from "../../../../bff/modules/access/nodes/node-keys";
import type { Database } from "../../../../db/database";
import { makeTestApp } from "../../../helpers/app";
import { customerWithDevice, nodeHeaders, postEvents } from "../../../helpers/nodes";

/** DESIGN §8: a node's batch is stored set-wise, so a flood of batches cannot hold the database. */

/** The database, counting the statements sent through it. */
function countingStatements(database: Database) {
  const counted = { statements: 0 };
  const count = <T>(result: T) => {
    counted.statements++;
    return result;
  };
  const counting: Database = {
    engine: database.engine,
    isShared: database.isShared,
    get: (sql, params) => count(database.get(sql, params)),
    all: (sql, params) => count(database.all(sql, params)),
    run: (sql, params) => count(database.run(sql, params)),
    transaction: (work) => database.transaction(work),
    inTurn: (name, work, mode) => database.inTurn(name, work, mode),
    exec: (sql) => database.exec(sql),
    changeVersion: () => database.changeVersion(),
    close: () => database.close(),
  };
  return { counting, counted };
}

describe("a node's batch of events", () => {
  test("is stored with a few statements whatever its size: 1,000 samples and 1,000 events", async () => {
    const { app, context } = await makeTestApp();
    const headers = await nodeHeaders(context, "set-wise");
    const node = await nodeByAuthorization(context.database, headers.authorization);
    const { device, userId } = await customerWithDevice(app, context, "set-wise@example.com");
    const { counting, counted } = countingStatements(context.database);
    const unknown = (index: number) => `k${String(index).padStart(20, "0")}`;
    const result = await storeNodeEvents(
      counting,
      node,
      {
        batchId: "b6f3c1a2-0000-4000-8000-000000000001",
        traffic: Array.from({ length: 1000 }, (_, index) => ({
          tag: index % 2 ? device.tag : unknown(index),
          upload: 1,
          download: 2,
        })),
        connections: Array.from({ length: 1000 }, (_, index) => ({
          tag: index % 4 ? device.tag : unknown(index),
          clientIp: "203.0.113.5",
          at: Date.now(),
          success: true,
        })),
      },
      { productNow: context.clock.now(), linkGbps: 10 },
    );
    expect(result).toEqual({ ignored: 500 + 250 });
    expect(counted.statements).toBeLessThanOrEqual(5);
    const traffic = await context.database.all<{ upload: number; download: number }>(
      "SELECT upload, download FROM device_traffic WHERE device_id = ?",
      [device.rowId],
    );
    expect(traffic.map((row) => [Number(row.upload), Number(row.download)])).toEqual([[500, 1000]]);
    const logs = await context.database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM connection_logs WHERE user_id = ?",
      [userId],
    );
    expect(Number(logs?.count)).toBe(750);
  });

  test("one device's samples in a batch are added up, on both engines, and its row added to", async () => {
    const { app, context } = await makeTestApp();
    const node = await nodeHeaders(context, "duplicates");
    const { device } = await customerWithDevice(app, context, "duplicates@example.com");
    const sample = { tag: device.tag, upload: 10, download: 20 };
    for (let send = 0; send < 2; send++) {
      const answer = await postEvents(app, node, { traffic: [sample, sample, { ...sample, upload: 0 }] });
      expect(answer.data).toEqual({ success: true, ignored: 0 });
    }
    const rows = await context.database.all<{ upload: number; download: number }>(
      "SELECT upload, download FROM device_traffic WHERE device_id = ?",
      [device.rowId],
    );
    expect(rows.map((row) => [Number(row.upload), Number(row.download)])).toEqual([[40, 120]]);
  });
});
