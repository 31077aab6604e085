import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import type { SignedIn } from "../../../helpers/customers";
import { ledger } from "../../../helpers/payments";
import { sandboxOf, sbpAutopayCustomer } from "../../../helpers/sbp";

// DESIGN §6: a device slot bought with a saved SBP binding is charged like a card's, but the
// payer's bank decides later: the purchase answers payment_pending (409) and the slot comes
// with the charge's Pay, never before it and never twice; a Fail saying the binding is gone
// ends the saved method as a removal does, with access to the end of the paid period.

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

const addDevice = ({ app }: TestApp, customer: SignedIn) =>
  apiOf(app).profile.addDevice.post(identityOf(customer), sessionOf(customer));

const slotsOf = async ({ context }: TestApp, userId: number) =>
  context.database.get<{ extra_devices: number; status: string; end_date: number }>(
    "SELECT extra_devices, status, end_date FROM subscriptions WHERE user_id = ?",
    [userId],
  );

const deviceChargesOf = ({ context }: TestApp, userId: number) =>
  context.database.all<{ status: string; method: string; decline_reason_code: number | null }>(
    "SELECT status, method, decline_reason_code FROM payments WHERE user_id = ? AND kind = 'device' ORDER BY id",
    [userId],
  );

describe("a device slot bought with SBP autopay", () => {
  test("answers payment_pending, refuses a second purchase meanwhile, and the slot comes once with its Pay", async () => {
    const world = await makeTestApp();
    const sandbox = sandboxOf(world);
    const { customer, userId, accountId } = await sbpAutopayCustomer(world, "sbp-slot@example.com", "ok", {
      trialDays: 30,
    });
    const release = sandbox.sbp.holdDecisions();
    expect(await refusalOf(addDevice(world, customer))).toMatchObject({
      status: 409,
      code: "payment_pending",
    });
    // A second press while the bank decides would buy a second slot nobody asked for.
    expect(await refusalOf(addDevice(world, customer))).toMatchObject({
      status: 409,
      code: "payment_pending",
    });
    expect(await deviceChargesOf(world, userId)).toEqual([
      { status: "pending", method: "sbp", decline_reason_code: null },
    ]);
    expect(await slotsOf(world, userId)).toMatchObject({ extra_devices: 0 });

    release();
    await sandbox.sbp.settled();
    expect(await deviceChargesOf(world, userId)).toEqual([
      { status: "completed", method: "sbp", decline_reason_code: null },
    ]);
    expect(await slotsOf(world, userId)).toMatchObject({ extra_devices: 1, status: "ACTIVE" });
    const profile = await dataOf(apiOf(world.app).profile.post(identityOf(customer), sessionOf(customer)));
    expect(profile.availableDevices).toBe(2);
    const charged = (await ledger(world.app, accountId)).filter((entry) =>
      entry.invoiceId.startsWith("device-"),
    );
    expect(charged.map((entry) => [entry.status, entry.method])).toEqual([["Completed", "sbp"]]);
    const mails = await dataOf(apiOf(world.app).dev.mail.get({ query: { to: customer.email } }));
    expect(mails.filter((mail) => mail.kind === "payment_succeeded")).toHaveLength(1);
  });

  test("a slot charge the bank refuses for a revoked binding forgets the method; access runs to the period's end", async () => {
    const world = await makeTestApp();
    const sandbox = sandboxOf(world);
    const { customer, userId } = await sbpAutopayCustomer(world, "sbp-slot-revoked@example.com", "revoked", {
      trialDays: 30,
    });
    const { end_date: paidUntil } = (await slotsOf(world, userId)) ?? { end_date: 0 };
    expect(await refusalOf(addDevice(world, customer))).toMatchObject({
      status: 409,
      code: "payment_pending",
    });
    await sandbox.sbp.settled();
    expect(await deviceChargesOf(world, userId)).toEqual([
      { status: "declined", method: "sbp", decline_reason_code: 6001 },
    ]);
    expect(await slotsOf(world, userId)).toEqual({
      extra_devices: 0,
      status: "CANCELED",
      end_date: paidUntil,
    });
    const profile = await dataOf(apiOf(world.app).profile.post(identityOf(customer), sessionOf(customer)));
    expect(profile.userInfo).toMatchObject({ subscriptionStatus: "CANCELED", subscriptionIsActive: true });
    expect(profile.card).toMatchObject({ isSaved: false, removedBy: "bank" });
    const told = await world.context.database.all<{ data: string }>(
      "SELECT data FROM mail_outbox WHERE user_id = ? AND kind = 'sbp_autopay_canceled'",
      [userId],
    );
    expect(told.map((row) => JSON.parse(row.data))).toEqual([{ accessUntil: paidUntil }]);
    expect(await refusalOf(addDevice(world, customer))).toMatchObject({
      status: 409,
      code: "slot_needs_active_subscription",
    });
  });
});
