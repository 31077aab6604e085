import { describe, expect, test } from "vitest";
import { apiOf, dataOf, refusalOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { referralCodeOf, signIn } from "../../../helpers/customers";
import { ledger } from "../../../helpers/payments";
import {
  panelRefund,
  payingCustomer,
  paymentsOf,
  type RefundBody,
  renew,
  staffHeaders,
  subscriptionOf,
} from "../../../helpers/refunds";

const { app, context } = await makeTestApp();
const api = apiOf(app);
const staff = await staffHeaders(app, context);
const refund = async (body: RefundBody) => panelRefund(app, await staff.admin(), body);
const refundsAtBank = async (accountId: string) =>
  (await ledger(app, accountId)).filter((entry) => entry.kind === "refund");

describe("paymentIds: an administrator refunds exactly the payments named", () => {
  test("by gateway transaction id; anything not this customer's, not completed or already refunded refuses all", async () => {
    const customer = await payingCustomer(app, "chosen@example.com");
    const stranger = await payingCustomer(app, "stranger@example.com");
    await renew(app, 1.5);
    await renew(app, 31);
    const [first, oldRenewal, currentRenewal] = await paymentsOf(context, customer.userId);
    const [strangerFirst] = await paymentsOf(context, stranger.userId);
    const identity = { email: customer.email, uid: customer.uid };

    const older = await refund({ ...identity, paymentIds: [String(oldRenewal?.transaction_id)] });
    expect(older).toMatchObject({ Success: true, total: 150, payments: [{ kind: "renewal" }] });
    expect(older.Message).toContain("access is unchanged");
    expect(older.endsAccess).toBe(false);
    expect((await subscriptionOf(context, customer.userId))?.status).toBe("ACTIVE");

    const refusals = [
      [
        [String(currentRenewal?.transaction_id), "999999999"],
        "Payment 999999999 is not a payment of chosen@example.com",
        "notTheirs",
      ],
      [
        [String(strangerFirst?.transaction_id)],
        `Payment ${strangerFirst?.transaction_id} is not a payment of`,
        "notTheirs",
      ],
      [
        [String(currentRenewal?.transaction_id), String(oldRenewal?.transaction_id)],
        "was already refunded",
        "alreadyRefunded",
      ],
    ] as const;
    for (const [paymentIds, message, code] of refusals) {
      const answer = await refund({ ...identity, paymentIds: [...paymentIds] });
      expect(answer).toMatchObject({ Success: false, payments: [], total: 0 });
      expect(answer.Message).toContain(message);
      // The code the panel words in the operator's language, with the payment it names.
      expect(answer.reason?.code).toBe(code);
      expect(answer.reason?.values.transactionId).toBeTruthy();
    }
    expect(await refundsAtBank(customer.accountId)).toHaveLength(1);
    expect(await refundsAtBank(stranger.accountId)).toHaveLength(0);

    // Numbers are taken too (the gateway's ids are numbers); the period's own charge ends access.
    const rest = await refund({
      ...identity,
      paymentIds: [Number(first?.transaction_id), String(currentRenewal?.transaction_id)],
    });
    expect(rest.payments.map((payment) => payment.kind)).toEqual(["first", "renewal"]);
    expect(rest).toMatchObject({ Success: true, total: 151 });
    expect((await subscriptionOf(context, customer.userId))?.status).toBe("EXPIRED");
    expect((await paymentsOf(context, customer.userId)).map((payment) => payment.status)).toEqual([
      "refunded",
      "refunded",
      "refunded",
    ]);
  });

  test("support staff may preview, paymentIds included, but not refund", async () => {
    const customer = await payingCustomer(app, "support-looks@example.com");
    const [first] = await paymentsOf(context, customer.userId);
    const body = { email: customer.email, uid: customer.uid, paymentIds: [String(first?.transaction_id)] };
    const seen = await panelRefund(app, await staff.support(), body, "/api/panel/refund/preview");
    expect(seen).toMatchObject({
      Success: true,
      total: 1,
      payments: [{ transactionId: first?.transaction_id }],
    });
    expect(seen.Message).toContain("Nothing has been done yet");
    const refused = await refusalOf(api.panel.refund.post(body, { headers: await staff.support() }));
    expect(refused.status).toBe(403);
    expect((await subscriptionOf(context, customer.userId))?.status).toBe("ACTIVE");
    expect(await refundsAtBank(customer.accountId)).toHaveLength(0);
  });
});

describe("what a refund changes around the customer", () => {
  test("a customer who never paid has nothing to refund", async () => {
    const customer = await signIn(app, "never-paid@example.com");
    const answer = await refund({ email: customer.email, uid: customer.uid });
    expect(answer).toMatchObject({ Success: false, payments: [], total: 0 });
    expect(answer.Message).toContain("the subscription is NOT_ACTIVE");
  });

  test("the inviter's referral discount drops the moment the invitee's refund ends access, and the audit says so", async () => {
    const inviter = await payingCustomer(app, "inviter@example.com");
    const code = await referralCodeOf(app, inviter);
    const friend = await payingCustomer(app, "refunded.friend@example.com", { referralCode: code });
    await renew(app, 1.5);
    const inviterDiscount = async () => {
      const details = await dataOf(
        api.panel.users.getUserById.post({}, { headers: await staff.admin(), query: { id: inviter.userId } }),
      );
      return details.referralDiscount;
    };
    expect(await inviterDiscount()).toBe(0.25);
    const answer = await refund({ email: friend.email, uid: friend.uid });
    expect(answer.Success).toBe(true);
    expect(await inviterDiscount()).toBe(0);
    const audit = await dataOf(
      api.panel.audit.get({ headers: await staff.admin(), query: { page: 0, size: 20 } }),
    );
    const [entry] = audit.content;
    expect(entry?.details).toHaveProperty("inviter", {
      userId: inviter.userId,
      referralDiscountBefore: 0.25,
      referralDiscountAfter: 0,
    });
  });
});
