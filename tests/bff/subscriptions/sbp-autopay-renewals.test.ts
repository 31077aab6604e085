import { describe, expect, test } from "vitest";
import { runRenewals } from "../../../bff/jobs/renewals";
import { addMonths, dayMs } from "../../../bff/platform/calendar";
import type { Clock } from "../../../bff/platform/clock";
import { apiOf, dataOf, identityOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { passDays, runBilling } from "../../helpers/payments";
import { renewalCharges, sandboxOf, sbpAutopayCustomer, sbpNotification } from "../../helpers/sbp";

// DESIGN §6, SBP autopay: a renewal charges the saved SBP binding like a card token, but the
// payer's bank decides after the gateway answered (Pending), and the outcome comes only by
// its Pay or Fail, or a look-up. Until then the attempt is pending: access kept, never
// counted paid or declined, never charged again by another pass or instance. Driven by the
// test clock and the real sandbox bank, as the card renewals' tests are.

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

type Renewal = {
  id: number;
  status: string;
  method: string;
  invoice_id: string;
  decline_reason_code: number | null;
};

const renewalsOf = ({ context }: TestApp, userId: number) =>
  context.database.all<Renewal>(
    "SELECT id, status, method, invoice_id, decline_reason_code FROM payments WHERE user_id = ? AND kind = 'renewal' ORDER BY id",
    [userId],
  );

const subscriptionOf = async ({ context }: TestApp, userId: number) =>
  (await context.database.get<{
    status: string;
    end_date: number;
    next_charge_at: number | null;
    dunning_attempts: number;
  }>("SELECT status, end_date, next_charge_at, dunning_attempts FROM subscriptions WHERE user_id = ?", [
    userId,
  ])) ?? { status: "none", end_date: 0, next_charge_at: null, dunning_attempts: -1 };

const mailsOf = async ({ app }: TestApp, email: string) =>
  (await dataOf(apiOf(app).dev.mail.get({ query: { to: email } }))).reverse();

const kindsOf = async (world: TestApp, email: string) =>
  (await mailsOf(world, email)).map((mail) => mail.kind);

const accessOf = async ({ app }: TestApp, customer: { uid: string; email: string; cookie: string }) =>
  (await dataOf(apiOf(app).profile.post(identityOf(customer), sessionOf(customer)))).userInfo;

/** A lease clock this far ahead of real time: every lease taken before it is dead to it. */
const leaseClockAhead = (ms: number): Clock => ({ now: () => Date.now() + ms });

describe("a renewal charged to SBP autopay is pending until the payer's bank decides", () => {
  test("noticed first; pending meanwhile (access kept, nothing counted, no second charge); its Pay renews once, a Pay again changes nothing", async () => {
    const world = await makeTestApp();
    const sandbox = sandboxOf(world);
    const { customer, userId, accountId } = await sbpAutopayCustomer(world, "sbp-renews@example.com", "ok");
    const paidUntil = (await subscriptionOf(world, userId)).end_date;
    const release = sandbox.sbp.holdDecisions();

    const counts = await passDays(world.app, 1.5);
    expect(counts).toMatchObject({ charged: 1, pending: 1, completed: 0, declined: 0 });
    const [attempt] = await renewalsOf(world, userId);
    expect(attempt).toMatchObject({ status: "pending", method: "sbp" });
    // The 2026 notice rule holds for SBP too: the notice went out 24 hours before the charge.
    const charges = await renewalCharges(world, accountId);
    expect(charges.map((charge) => [charge.status, charge.method])).toEqual([["Pending", "sbp"]]);
    const notice = (await mailsOf(world, customer.email)).find((mail) => mail.kind === "renewal_notice");
    expect(Date.parse(charges[0]?.dateTime ?? "") - Date.parse(notice?.sentAt ?? "")).toBeGreaterThanOrEqual(
      dayMs,
    );
    expect(await kindsOf(world, customer.email)).toEqual(["trial_started", "renewal_notice"]);
    expect(await subscriptionOf(world, userId)).toMatchObject({ end_date: paidUntil, dunning_attempts: 0 });
    expect(await accessOf(world, customer)).toMatchObject({
      subscriptionStatus: "ACTIVE",
      subscriptionIsActive: true,
    });

    // Another pass here, another instance's pass (a lease of its own), and a pass once the
    // charging pass's lease is gone, which looks the attempt up: still Pending at the bank.
    expect(await runBilling(world.app)).toMatchObject({ charged: 0, recovered: 0 });
    expect(await runRenewals({ ...world.context }, { leaseClock: leaseClockAhead(0) })).toMatchObject({
      charged: 0,
      recovered: 0,
    });
    expect(await runRenewals(world.context, { leaseClock: leaseClockAhead(31_000) })).toMatchObject({
      charged: 0,
      recovered: 0,
    });
    expect((await renewalsOf(world, userId)).map((renewal) => renewal.status)).toEqual(["pending"]);
    expect(await renewalCharges(world, accountId)).toHaveLength(1);

    release();
    await sandbox.sbp.settled();
    expect((await renewalsOf(world, userId)).map((renewal) => renewal.status)).toEqual(["completed"]);
    const renewed = await subscriptionOf(world, userId);
    expect(renewed).toMatchObject({
      status: "ACTIVE",
      end_date: addMonths(paidUntil, 1),
      dunning_attempts: 0,
    });

    const [charge] = await renewalCharges(world, accountId);
    if (!charge) throw new Error("no renewal charge at the bank");
    const again = await sbpNotification(world, "pay", { ...charge, accountId });
    expect(again).toEqual({ status: 200, code: 0 });
    expect(await subscriptionOf(world, userId)).toEqual(renewed);
    expect(await kindsOf(world, customer.email)).toEqual([
      "trial_started",
      "renewal_notice",
      "payment_succeeded",
    ]);
    expect((await renewalCharges(world, accountId)).map((entry) => entry.status)).toEqual(["Completed"]);
  });

  test("a Pay that comes before the pass records the charge's answer renews once", async () => {
    const world = await makeTestApp();
    const sandbox = sandboxOf(world);
    const { customer, userId, accountId } = await sbpAutopayCustomer(
      world,
      "sbp-early-pay@example.com",
      "ok",
    );
    const paidUntil = (await subscriptionOf(world, userId)).end_date;
    // The bank's Pay is applied before the pass reads the charge's answer (Pending).
    const { gateway } = world.context.payments;
    const chargeToken = gateway.chargeToken.bind(gateway);
    gateway.chargeToken = async (...args) => {
      const answer = await chargeToken(...args);
      await sandbox.sbp.settled();
      expect((await renewalsOf(world, userId)).map((renewal) => renewal.status)).toEqual(["completed"]);
      return answer;
    };
    expect(await passDays(world.app, 1.5)).toMatchObject({ charged: 1, completed: 0, declined: 0 });
    expect((await renewalsOf(world, userId)).map((renewal) => renewal.status)).toEqual(["completed"]);
    expect((await subscriptionOf(world, userId)).end_date).toBe(addMonths(paidUntil, 1));
    expect(await passDays(world.app, 1)).toMatchObject({ charged: 0 });
    expect((await subscriptionOf(world, userId)).end_date).toBe(addMonths(paidUntil, 1));
    expect(await kindsOf(world, customer.email)).toEqual([
      "trial_started",
      "renewal_notice",
      "payment_succeeded",
    ]);
    expect(await renewalCharges(world, accountId)).toHaveLength(1);
  });

  test("a bank that never notifies: the look-up once the charging pass's lease is gone finds it paid, and it renews once", async () => {
    const world = await makeTestApp();
    const sandbox = sandboxOf(world);
    const { customer, userId, accountId } = await sbpAutopayCustomer(
      world,
      "sbp-silent@example.com",
      "silent",
    );
    const paidUntil = (await subscriptionOf(world, userId)).end_date;
    expect(await passDays(world.app, 1.5)).toMatchObject({ charged: 1, pending: 1 });
    await sandbox.sbp.settled();
    expect((await renewalCharges(world, accountId)).map((charge) => charge.status)).toEqual(["Completed"]);
    // Decided at the bank, told to nobody: the lease of the pass that sent it still lives.
    expect(await runBilling(world.app)).toMatchObject({ recovered: 0, charged: 0 });
    expect((await renewalsOf(world, userId)).map((renewal) => renewal.status)).toEqual(["pending"]);

    const lookUp = leaseClockAhead(31_000);
    expect(await runRenewals(world.context, { leaseClock: lookUp })).toMatchObject({
      recovered: 1,
      charged: 0,
    });
    expect(await runRenewals(world.context, { leaseClock: lookUp })).toMatchObject({
      recovered: 0,
      charged: 0,
    });
    expect((await renewalsOf(world, userId)).map((renewal) => renewal.status)).toEqual(["completed"]);
    expect((await subscriptionOf(world, userId)).end_date).toBe(addMonths(paidUntil, 1));
    expect(await kindsOf(world, customer.email)).toEqual([
      "trial_started",
      "renewal_notice",
      "payment_succeeded",
    ]);
    expect(await renewalCharges(world, accountId)).toHaveLength(1);
  });
});

describe("declined later by the payer's bank (Fail 5051)", () => {
  test("goes through the usual dunning: retried after 1 and 3 days with access kept, then the end", async () => {
    const world = await makeTestApp();
    const sandbox = sandboxOf(world);
    const { customer, userId, accountId } = await sbpAutopayCustomer(
      world,
      "sbp-dunning@example.com",
      "declinesLater",
    );
    const due = (await subscriptionOf(world, userId)).end_date;
    const settledPass = async (days: number) => {
      const counts = await passDays(world.app, days);
      await sandbox.sbp.settled();
      return counts;
    };
    expect(await settledPass(1.01)).toMatchObject({ charged: 1, pending: 1, declined: 0 });
    expect(await subscriptionOf(world, userId)).toMatchObject({
      status: "ACTIVE",
      dunning_attempts: 1,
      next_charge_at: due + dayMs,
    });
    expect((await accessOf(world, customer)).subscriptionIsActive).toBe(true);
    await settledPass(1);
    expect(await subscriptionOf(world, userId)).toMatchObject({
      status: "ACTIVE",
      dunning_attempts: 2,
      next_charge_at: due + 3 * dayMs,
    });
    expect(await settledPass(1)).toMatchObject({ charged: 0 });
    await settledPass(1);
    expect((await subscriptionOf(world, userId)).status).toBe("EXPIRED");
    expect(
      (await renewalsOf(world, userId)).map((renewal) => [renewal.status, renewal.decline_reason_code]),
    ).toEqual([
      ["declined", 5051],
      ["declined", 5051],
      ["declined", 5051],
    ]);
    expect((await renewalCharges(world, accountId)).map((charge) => charge.status)).toEqual([
      "Declined",
      "Declined",
      "Declined",
    ]);
    expect(await kindsOf(world, customer.email)).toEqual([
      "trial_started",
      "renewal_notice",
      "payment_failed",
      "payment_failed",
      "payment_failed",
      "subscription_ended",
    ]);
  });
});
