import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, sessionOf } from "../../../helpers/api";
import { makeTestApp, request } from "../../../helpers/app";
import type { SignedIn } from "../../../helpers/customers";
import { signIn } from "../../../helpers/customers";
import { cards, ledger, notifyAsGateway, order, payWithCard } from "../../../helpers/payments";
import { panelRefund, staffHeaders } from "../../../helpers/refunds";
import { sandboxOf, sbpAutopayCustomer } from "../../../helpers/sbp";

// DESIGN §6: a refund of an SBP payment at CloudPayments is accepted by the answer and done
// only when the Refund notification comes (the payer's bank makes the transfer later). Until
// then the cabinet's history and the panel's receipts say "refund in progress"; then
// "refunded". Access ends at once, as for any refund. A card's refund is done by its answer.

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

const paymentRow = async ({ context }: TestApp, userId: number) =>
  context.database.get<{
    id: number;
    status: string;
    refunded_amount: number;
    refund_in_progress: number;
    transaction_id: string;
  }>(
    "SELECT id, status, refunded_amount, refund_in_progress, transaction_id FROM payments WHERE user_id = ? AND kind = 'first'",
    [userId],
  );

type Staff = Awaited<ReturnType<typeof staffHeaders>>;

/** What the customer and an operator see of the customer's payments. */
async function shown({ app }: TestApp, staff: Staff, customer: SignedIn, userId: number) {
  const history = await dataOf(apiOf(app).profile.payments.post(identityOf(customer), sessionOf(customer)));
  const checks = (await dataOf(
    apiOf(app).panel.checks.post(
      {},
      { headers: await staff.support(), query: { userId, page: 0, size: 10 } },
    ),
  )) as { content: { status: string }[] };
  const [first] = history.payments.filter((entry) => entry.purpose !== "refund");
  const page = await (
    await app.handle(request(first?.receiptUrl ?? "", { headers: { cookie: customer.cookie } }))
  ).text();
  return {
    history: history.payments.map((entry) => [entry.purpose, entry.status]),
    panel: checks.content.map((receipt) => receipt.status),
    receiptSays: page.includes("Refund in progress")
      ? "in progress"
      : page.includes("Refunded")
        ? "refunded"
        : "paid",
  };
}

const refundMails = async ({ app }: TestApp, email: string) =>
  (await dataOf(apiOf(app).dev.mail.get({ query: { to: email } }))).filter(
    (mail) => mail.kind === "refund_made",
  );

describe("an operator's refund of an SBP payment", () => {
  test("is in progress until its Refund notification, then refunded; access ends at once; a second notification changes nothing", async () => {
    const world = await makeTestApp();
    const sandbox = sandboxOf(world);
    const staff = await staffHeaders(world.app, world.context);
    const { customer, userId, accountId } = await sbpAutopayCustomer(world, "sbp-refund@example.com", "ok", {
      trialDays: 30,
    });
    const release = sandbox.sbp.holdDecisions();
    const answer = await panelRefund(world.app, await staff.admin(), {
      email: customer.email,
      uid: customer.uid,
    });
    expect(answer).toMatchObject({ Success: true, total: 1 });

    expect(await paymentRow(world, userId)).toMatchObject({
      status: "refunded",
      refunded_amount: 100,
      refund_in_progress: 1,
    });
    const profile = await dataOf(apiOf(world.app).profile.post(identityOf(customer), sessionOf(customer)));
    expect(profile.userInfo).toMatchObject({ subscriptionStatus: "EXPIRED", subscriptionIsActive: false });
    expect(await shown(world, staff, customer, userId)).toEqual({
      history: [
        ["refund", "refund_in_progress"],
        ["trial", "refund_in_progress"],
      ],
      panel: ["REFUND_IN_PROGRESS"],
      receiptSays: "in progress",
    });
    const refundAtBank = () =>
      ledger(world.app, accountId).then((entries) => entries.filter((entry) => entry.kind === "refund"));
    expect((await refundAtBank()).map((entry) => [entry.status, entry.method])).toEqual([["Pending", "sbp"]]);

    release();
    await sandbox.sbp.settled();
    const done = await paymentRow(world, userId);
    expect(done).toMatchObject({ status: "refunded", refunded_amount: 100, refund_in_progress: 0 });
    expect(await shown(world, staff, customer, userId)).toEqual({
      history: [
        ["refund", "refunded"],
        ["trial", "refunded"],
      ],
      panel: ["REFUNDED"],
      receiptSays: "refunded",
    });
    const [refund] = await refundAtBank();
    expect(refund?.status).toBe("Completed");
    const [told] = await refundMails(world, customer.email);
    expect(told?.text).toContain("The money goes back to the account you paid from by SBP.");
    expect(told?.text).not.toContain("to your card");
    expect(told?.text).toContain("Your access to Kannt has ended.");

    // The gateway delivers at least once: the same Refund again is applied once.
    const again = await notifyAsGateway(world.app, world.context.config.cloudPaymentsApiSecret, "refund", {
      TransactionId: refund?.transactionId ?? "",
      PaymentTransactionId: done?.transaction_id ?? "",
      Amount: "1.00",
      Currency: "RUB",
      InvoiceId: refund?.invoiceId ?? "",
      AccountId: accountId,
      OperationType: "Refund",
      PaymentMethod: "Sbp",
      Status: "Completed",
    });
    expect(again).toEqual({ status: 200, code: 0 });
    expect(await paymentRow(world, userId)).toEqual(done);
    expect(await refundMails(world, customer.email)).toHaveLength(1);
  });

  test("a Refund notification that comes before the refund's answer is recorded leaves it refunded, not in progress", async () => {
    const world = await makeTestApp();
    const sandbox = sandboxOf(world);
    const staff = await staffHeaders(world.app, world.context);
    const { customer, userId } = await sbpAutopayCustomer(world, "sbp-refund-early@example.com", "ok", {
      trialDays: 30,
    });
    const { gateway } = world.context.payments;
    const refund = gateway.refund.bind(gateway);
    gateway.refund = async (...args) => {
      const answer = await refund(...args);
      await sandbox.sbp.settled();
      return answer;
    };
    expect(
      await panelRefund(world.app, await staff.admin(), { email: customer.email, uid: customer.uid }),
    ).toMatchObject({ Success: true });
    expect(await paymentRow(world, userId)).toMatchObject({ status: "refunded", refund_in_progress: 0 });
    expect((await shown(world, staff, customer, userId)).history).toEqual([
      ["refund", "refunded"],
      ["trial", "refunded"],
    ]);
    expect(await refundMails(world, customer.email)).toHaveLength(1);
  });
});

describe("a card payment's refund", () => {
  test("is done by the gateway's answer, as before: refunded at once, never in progress", async () => {
    const world = await makeTestApp();
    const staff = await staffHeaders(world.app, world.context);
    const customer = await signIn(world.app, "card-refund@example.com");
    const widget = await order(world.app, customer, 1, 30);
    expect((await payWithCard(world.app, widget.invoiceId, cards.success)).success).toBe(true);
    const userId = Number(widget.accountId.replace("customer-", ""));
    await panelRefund(world.app, await staff.admin(), { email: customer.email, uid: customer.uid });
    expect(await paymentRow(world, userId)).toMatchObject({ status: "refunded", refund_in_progress: 0 });
    expect(await shown(world, staff, customer, userId)).toEqual({
      history: [
        ["refund", "refunded"],
        ["trial", "refunded"],
      ],
      panel: ["REFUNDED"],
      receiptSays: "refunded",
    });
    const refunds = (await ledger(world.app, widget.accountId)).filter((entry) => entry.kind === "refund");
    expect(refunds.map((entry) => [entry.status, entry.method])).toEqual([["Completed", "card"]]);
  });
});
