import { describe, expect, test } from "vitest";
import { apiOf, dataOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { ledger } from "../../../helpers/payments";
import {
  customerWithBusyPeriod,
  panelRefund,
  payingCustomer,
  paymentsOf,
  type RefundBody,
  renew,
  staffHeaders,
  subscriptionOf,
} from "../../../helpers/refunds";

const { app, context, clock } = await makeTestApp();
const api = apiOf(app);
const staff = await staffHeaders(app, context);
const refund = async (body: RefundBody) => panelRefund(app, await staff.admin(), body);
const preview = async (body: RefundBody) =>
  panelRefund(app, await staff.admin(), body, "/api/panel/refund/preview");
const refundsAtBank = async (accountId: string) =>
  (await ledger(app, accountId)).filter((entry) => entry.kind === "refund");

describe("which account a refund reaches", () => {
  test("two accounts with one e-mail in different case: the uid picks the account, the other is untouched", async () => {
    const google = await payingCustomer(app, "Twin.Buyer@Example.com", { provider: "google.com" });
    const yandex = await payingCustomer(app, "twin.buyer@example.com", { provider: "yandex" });
    expect(google.uid).not.toBe(yandex.uid);
    const answer = await refund({ email: "TWIN.BUYER@EXAMPLE.COM", uid: yandex.uid });
    expect(answer).toMatchObject({ Success: true, total: 1, payments: [{ kind: "first", amount: 1 }] });
    expect((await subscriptionOf(context, yandex.userId))?.status).toBe("EXPIRED");
    expect((await subscriptionOf(context, google.userId))?.status).toBe("ACTIVE");
    expect(await refundsAtBank(yandex.accountId)).toHaveLength(1);
    expect(await refundsAtBank(google.accountId)).toHaveLength(0);
  });

  test("a missing uid, an unknown uid or an e-mail of another account refunds nothing and says why", async () => {
    const customer = await payingCustomer(app, "careful@example.com");
    const missing = await refund({ email: customer.email });
    expect(missing).toMatchObject({
      Success: false,
      Message: expect.stringContaining("needs the customer's uid"),
    });
    const unknown = await refund({ email: customer.email, uid: "no-such-uid" });
    expect(unknown).toMatchObject({
      Success: false,
      Message: expect.stringContaining('No customer has the uid "no-such-uid"'),
    });
    const mismatch = await refund({ email: "someone.else@example.com", uid: customer.uid });
    expect(mismatch.Success).toBe(false);
    expect(mismatch.Message).toContain("belongs to careful@example.com, not to someone.else@example.com");
    expect(await preview({ email: customer.email })).toMatchObject({
      Success: false,
      payments: [],
      total: 0,
    });
    expect(await refundsAtBank(customer.accountId)).toHaveLength(0);
    expect((await subscriptionOf(context, customer.userId))?.status).toBe("ACTIVE");
  });
});

describe("refunding the current period", () => {
  test("a renewal and two device charges all go back, older periods stay, access ends, and the preview said exactly that", async () => {
    const customer = await customerWithBusyPeriod(app, "busy.period@example.com");
    const [first, oldRenewal, oldDevice, renewal, deviceA, deviceB] = await paymentsOf(
      context,
      customer.userId,
    );
    expect([
      first?.kind,
      oldRenewal?.kind,
      oldDevice?.kind,
      renewal?.kind,
      deviceA?.kind,
      deviceB?.kind,
    ]).toEqual(["first", "renewal", "device", "renewal", "device", "device"]);
    const identity = { email: customer.email, uid: customer.uid };
    const seen = await preview(identity);
    const expected = [deviceB, deviceA, renewal].map((payment) => ({
      transactionId: payment?.transaction_id,
      amount: (payment?.amount ?? 0) / 100,
      kind: payment?.kind,
      dateTime: expect.any(String),
    }));
    expect(seen).toMatchObject({ Success: true, payments: expected, currency: "RUB" });
    const expectedTotal =
      [deviceB, deviceA, renewal].reduce((sum, payment) => sum + (payment?.amount ?? 0), 0) / 100;
    expect(seen.total).toBe(expectedTotal);
    expect((await paymentsOf(context, customer.userId)).map((payment) => payment.status)).not.toContain(
      "refunded",
    );

    const pressedAt = clock.now();
    const done = await refund(identity);
    expect(done).toMatchObject({ Success: true, payments: seen.payments, total: seen.total });
    expect(done.Message).toMatch(/^Refunded .* \(3 payments\); access ended now/);
    const after = await paymentsOf(context, customer.userId);
    expect(after.map((payment) => payment.status)).toEqual([
      "completed",
      "completed",
      "completed",
      "refunded",
      "refunded",
      "refunded",
    ]);
    const bank = await refundsAtBank(customer.accountId);
    expect(bank.map((entry) => entry.amount).sort()).toEqual(
      seen.payments.map((payment) => payment.amount).sort(),
    );
    const ended = await subscriptionOf(context, customer.userId);
    expect(ended?.status).toBe("EXPIRED");
    expect(ended?.end_date).toBeGreaterThanOrEqual(pressedAt);
    expect(ended?.end_date).toBeLessThanOrEqual(clock.now());

    const again = await refund(identity);
    expect(again).toMatchObject({
      Success: false,
      Message: expect.stringContaining("Nothing to refund"),
      total: 0,
    });
    expect(await refundsAtBank(customer.accountId)).toHaveLength(3);
    expect(await paymentsOf(context, customer.userId)).toEqual(after);
  });

  test("the audit entry lists exactly what went back", async () => {
    const customer = await payingCustomer(app, "audited@example.com");
    await renew(app, 1.5);
    const [, renewal] = await paymentsOf(context, customer.userId);
    await refund({ email: customer.email, uid: customer.uid });
    const audit = await dataOf(
      api.panel.audit.get({ headers: await staff.admin(), query: { page: 0, size: 20 } }),
    );
    const entry = audit.content[0];
    expect(entry).toMatchObject({ action: "refund", targetEmail: "audited@example.com" });
    expect(entry?.details).toEqual({
      uid: customer.uid,
      email: "audited@example.com",
      payments: [
        {
          paymentId: renewal?.id,
          transactionId: renewal?.transaction_id,
          amount: 150,
          kind: "renewal",
          dateTime: expect.any(String),
        },
      ],
      total: 150,
      currency: "RUB",
      isComplete: true,
      hasEndedAccess: true,
      notRefunded: [],
    });
  });

  test("nothing refundable answers Success false and changes nothing", async () => {
    const customer = await payingCustomer(app, "never-paid-full@example.com");
    await refund({ email: customer.email, uid: customer.uid });
    const before = await paymentsOf(context, customer.userId);
    for (const answer of [
      await preview({ email: customer.email, uid: customer.uid }),
      await refund({ email: customer.email, uid: customer.uid }),
    ]) {
      expect(answer).toMatchObject({ Success: false, payments: [], total: 0 });
      expect(answer.Message).toContain("Nothing to refund: the subscription is EXPIRED");
      expect(answer.reason).toEqual({ code: "notRunning", values: { status: "EXPIRED" } });
    }
    expect(await paymentsOf(context, customer.userId)).toEqual(before);
  });
});
