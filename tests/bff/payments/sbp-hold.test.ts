import { expect, test } from "vitest";
import { apiOf, dataOf } from "../../helpers/api";
import { makeTestApp, postJson } from "../../helpers/app";
import { passDays, runBilling } from "../../helpers/payments";
import { sbpAutopayCustomer } from "../../helpers/sbp";

// DESIGN §6 and §11: the demo can hold the payers' banks' decisions on SBP autopay charges,
// so a test over HTTP (the billing simulation against a real server process) sees the shop
// while a renewal is only pending: not paid, its period not extended; released, the
// notification settles it once.

test("held, an SBP renewal stays pending with its period as it was; released, its Pay settles it once", async () => {
  const world = await makeTestApp();
  const { app, context } = world;
  const api = apiOf(app);
  const { userId } = await sbpAutopayCustomer(world, "sbp-hold@example.com", "ok");
  const endDate = async () =>
    (
      await context.database.get<{ end_date: number }>(
        "SELECT end_date FROM subscriptions WHERE user_id = ?",
        [userId],
      )
    )?.end_date;
  const renewals = () =>
    context.database.all<{ status: string }>(
      "SELECT status FROM payments WHERE user_id = ? AND kind = 'renewal' ORDER BY id",
      [userId],
    );
  await passDays(app, 0.5); // the notice
  const before = await endDate();
  expect(await dataOf(api.dev.sandbox.sbp.hold.post({ isHeld: true }))).toEqual({ isHeld: true });
  await dataOf(api.dev.clock.post({ advanceDays: 1 }));
  expect(await runBilling(app)).toMatchObject({ charged: 1, completed: 0, pending: 1, declined: 0 });
  await Bun.sleep(20); // time enough for a bank that was not held
  expect(await renewals()).toEqual([{ status: "pending" }]);
  expect(await endDate()).toBe(before);
  expect(await dataOf(api.dev.sandbox.sbp.hold.post({ isHeld: false }))).toEqual({ isHeld: false });
  await dataOf(api.dev.sandbox.sbp.settled.get());
  expect(await renewals()).toEqual([{ status: "completed" }]);
  expect(await endDate()).toBeGreaterThan(before ?? 0);
});

test("bad input to the hold is a 400 with a readable message", async () => {
  const { app } = await makeTestApp();
  for (const body of [{}, { isHeld: "yes" }, []]) {
    const answer = await app.handle(postJson("/api/dev/sandbox/sbp/hold", body));
    expect(answer.status).toBe(400);
    const { error } = (await answer.json()) as { error: { message: string } };
    expect(error.message.length).toBeGreaterThan(10);
  }
});
