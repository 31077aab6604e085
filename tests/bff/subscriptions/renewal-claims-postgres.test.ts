import { describe, expect, test } from "vitest";
import { type Attempt, claimDue } from "../../../bff/jobs/renewal-claim";
import { cancelSubscription } from "../../../bff/modules/subscriptions/service";
import type { Database } from "../../../db/database";
import { payments } from "../../../db/queries/payments";
import { dueCustomers, subscriptionOf } from "../../helpers/due-renewals";

// PostgreSQL only (vitest.config.ts): row locks and what waits on them, which one SQLite
// writer never shows. The rest of the set-based claim is renewal-set-based.test.ts.

/** How many of this database's sessions wait for a lock of this kind (pg_stat_activity.wait_event). */
const waitingFor = async (database: Database, event: "advisory" | "transactionid") =>
  (
    await database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND wait_event = ?",
      [event],
    )
  )?.count ?? 0;

const until = async (condition: () => Promise<boolean>) => {
  while (!(await condition())) await Bun.sleep(10);
};

describe("claims of several instances on PostgreSQL", () => {
  test("a claim held up holds up only its own rows: another instance's claim goes ahead, a cancellation waits for it", async () => {
    const testApp = await dueCustomers(20, "apart");
    const { context } = testApp;
    const { database } = context;
    const dueOrder = await database.all<{ id: number; user_id: number }>(
      "SELECT id, user_id FROM subscriptions WHERE status = 'ACTIVE' ORDER BY next_charge_at, id",
    );
    const [held, cancelled] = dueOrder as [{ id: number; user_id: number }, { id: number; user_id: number }];
    // Another transaction holds the first customer's row: claim A, which takes the first
    // ten, waits inside its transaction when its attempts are inserted (their key check).
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let isHolding = () => {};
    const holding = new Promise<void>((resolve) => {
      isHolding = resolve;
    });
    const holder = database.transaction(async () => {
      await database.get("SELECT id FROM users WHERE id = ? FOR UPDATE", [held.user_id]);
      isHolding();
      await released;
    });
    await holding;
    const claimA = claimDue(context, "instance-a", 10);
    await until(async () => (await waitingFor(database, "transactionid")) === 1);
    // A customer whose renewal claim A has taken cancels now: the cancellation waits for the claim.
    const cancelling = cancelSubscription(database, cancelled.user_id, context.clock.now());
    await until(async () => (await waitingFor(database, "transactionid")) === 2);
    const claimB = claimDue(context, "instance-b", 10);
    const first = await Promise.race([
      claimB.then((claimed) => ({ claimed })),
      until(async () => (await waitingFor(database, "advisory")) > 0).then(
        () => "waits for claim A" as const,
      ),
    ]);
    release();
    if (first === "waits for claim A") throw new Error("claim B waited for claim A");
    await holder;
    const a = await claimA;
    await cancelling;
    const idsOf = (claimed: { toCharge: Attempt[] }) =>
      claimed.toCharge.map(({ subscription }) => subscription.id);
    expect(idsOf(a)).toEqual(dueOrder.slice(0, 10).map((row) => row.id));
    expect(idsOf(first.claimed)).toEqual(dueOrder.slice(10, 20).map((row) => row.id));
    // The cancellation came after the claim: its attempt goes ahead, renewals stop after it.
    expect(await subscriptionOf(database, cancelled.id)).toMatchObject({
      status: "CANCELED",
      next_charge_at: null,
    });
    const attempt = await payments.byInvoice(database, `renewal-${cancelled.id}-0-1`);
    expect(attempt?.status).toBe("pending");
  });
});
