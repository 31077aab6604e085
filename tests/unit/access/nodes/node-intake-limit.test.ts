import { describe, expect, test } from "vitest";
import { createIntakeLimit, nodeIntakeRates } from "../../../../bff/modules/access/nodes/node-intake-limit";
import { AppError } from "../../../../bff/platform/errors";

/** DESIGN §8: how much one node may send, per node, in this process. */

/** Sends one batch of `items` at `at` (ms); false when refused. */
function sender(limit: ReturnType<typeof createIntakeLimit>, nodeId: number) {
  return (items: number, at: number) => {
    if (limit.waitMs(nodeId, at) > 0) return false;
    limit.charge(nodeId, items, at);
    return true;
  };
}

describe("a node's allowance of events", () => {
  test("a node with 100,000 active credentials fits: 100 batches of 1,000 items every 10 s, for an hour", () => {
    const send = sender(createIntakeLimit(), 1);
    let refused = 0;
    for (let at = 0; at < 3_600_000; at += 100) if (!send(1000, at)) refused++;
    expect(refused).toBe(0);
  });

  test("a backlog kept while the product was away goes in at once, up to the burst", () => {
    const send = sender(createIntakeLimit(), 1);
    let accepted = 0;
    while (send(1000, 0)) accepted++;
    expect(accepted * 1100).toBeGreaterThanOrEqual(nodeIntakeRates.burstItems);
    expect(accepted * 1100).toBeLessThan(nodeIntakeRates.burstItems + 1100);
  });

  test("four senders flooding with one key get the rate and no more, and are told when to come back", () => {
    const limit = createIntakeLimit();
    const send = sender(limit, 7);
    let accepted = 0;
    // Four senders, each a batch of 1,000 items every millisecond, for 20 s.
    for (let at = 0; at < 20_000; at++) for (let each = 0; each < 4; each++) if (send(1000, at)) accepted++;
    const allowed = nodeIntakeRates.burstItems + 20 * nodeIntakeRates.itemsPerSecond;
    expect(accepted * 1100).toBeLessThanOrEqual(allowed + 1100);
    expect(accepted * 1100).toBeGreaterThan(allowed - 2 * 1100);
    const waitMs = limit.waitMs(7, 20_000);
    expect(waitMs).toBeGreaterThan(0);
    expect(waitMs).toBeLessThanOrEqual(Math.ceil((1100 / nodeIntakeRates.itemsPerSecond) * 1000));
    const refusal = limit.refusal(waitMs);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal.code).toBe("node_busy");
    expect(refusal.status).toBe(429);
    expect(refusal.retryAfterSeconds).toBe(1);
    expect(refusal.message).toBe(
      "This node sends more than the product takes in (22000 items a second): keep the batch and send it again in 1 s.",
    );
    expect(limit.refusal(2_001).retryAfterSeconds).toBe(3);
    // Another node is not held back by this one's flood.
    expect(sender(limit, 8)(1000, 20_000)).toBe(true);
  });

  test("empty batches run it dry too, and a debt makes the wait longer", () => {
    const limit = createIntakeLimit({ itemsPerSecond: 100, burstItems: 1000, batchCost: 100 });
    const send = sender(limit, 1);
    let accepted = 0;
    while (send(0, 0)) accepted++;
    expect(accepted).toBe(10);
    limit.charge(1, 0, 0);
    limit.charge(1, 450, 0);
    // 650 in debt at 100 a second: 6.51 s until the balance is above zero again.
    expect(limit.waitMs(1, 0)).toBe(6510);
    expect(limit.waitMs(1, 6510)).toBe(0);
  });
});
