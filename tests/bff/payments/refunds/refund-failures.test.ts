import { describe, expect, test } from "vitest";
import { apiOf, dataOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { advanceDays, ledger } from "../../../helpers/payments";
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

const { app, context } = await makeTestApp();
const api = apiOf(app);
const staff = await staffHeaders(app, context);
const refund = async (body: RefundBody) => panelRefund(app, await staff.admin(), body);
const preview = async (body: RefundBody) =>
  panelRefund(app, await staff.admin(), body, "/api/panel/refund/preview");
const refundsAtBank = async (accountId: string) =>
  (await ledger(app, accountId)).filter((entry) => entry.kind === "refund");

const gateway = context.payments.gateway;
const realRefund = gateway.refund;

/** Runs `body` with the gateway's refund call replaced, then puts the real one back. */
async function withGatewayRefund<T>(replacement: typeof realRefund, body: () => Promise<T>): Promise<T> {
  gateway.refund = replacement;
  try {
    return await body();
  } finally {
    gateway.refund = realRefund;
  }
}

const claimsOf = async (userId: number) =>
  (
    await context.database.all<{ refund_claim: string | null }>(
      "SELECT refund_claim FROM payments WHERE user_id = ?",
      [userId],
    )
  ).filter((row) => row.refund_claim !== null).length;

describe("a gateway failure part way", () => {
  test("refused on the second of three: the first stays refunded, access is kept, and the next press finishes", async () => {
    const customer = await customerWithBusyPeriod(app, "half-way@example.com");
    const identity = { email: customer.email, uid: customer.uid };
    const [, , , renewal, deviceA, deviceB] = await paymentsOf(context, customer.userId);
    let calls = 0;
    const answer = await withGatewayRefund(
      async (transactionId, amount, receipt) => {
        calls++;
        if (calls === 2) return { Success: false, Message: "Bank is offline" };
        return realRefund(transactionId, amount, receipt);
      },
      () => refund(identity),
    );
    expect(calls).toBe(2);
    expect(answer).toMatchObject({
      Success: false,
      payments: [{ transactionId: deviceB?.transaction_id, kind: "device" }],
      notRefunded: [
        { transactionId: deviceA?.transaction_id, reason: "the gateway refused it: Bank is offline" },
        { transactionId: renewal?.transaction_id, reason: "not sent after the failure" },
      ],
    });
    expect(answer.Message).toContain(
      "Access is kept until the rest is refunded too. Press again to refund the rest.",
    );
    // What the panel words in the operator's language: which payment, refused with the bank's own words.
    expect(answer).toMatchObject({
      gatewayFailure: { transactionId: deviceA?.transaction_id, refused: true, detail: "Bank is offline" },
      endsAccess: false,
    });
    expect((await paymentsOf(context, customer.userId)).map((payment) => payment.status)).toEqual([
      "completed",
      "completed",
      "completed",
      "completed",
      "completed",
      "refunded",
    ]);
    expect(await claimsOf(customer.userId)).toBe(0);
    const audit = await dataOf(
      api.panel.audit.get({ headers: await staff.admin(), query: { page: 0, size: 20 } }),
    );
    const [entry] = audit.content;
    expect(entry?.details).toMatchObject({
      payments: [{ transactionId: deviceB?.transaction_id }],
      isComplete: false,
      hasEndedAccess: false,
      notRefunded: [{ transactionId: deviceA?.transaction_id }, { transactionId: renewal?.transaction_id }],
    });
    expect((await subscriptionOf(context, customer.userId))?.status).toBe("ACTIVE");
    expect(await refundsAtBank(customer.accountId)).toHaveLength(1);

    const rest = await preview(identity);
    expect(rest.payments.map((payment) => payment.transactionId)).toEqual([
      deviceA?.transaction_id,
      renewal?.transaction_id,
    ]);
    const finished = await refund(identity);
    expect(finished).toMatchObject({ Success: true, payments: rest.payments });
    expect((await subscriptionOf(context, customer.userId))?.status).toBe("EXPIRED");
    expect(await refundsAtBank(customer.accountId)).toHaveLength(3);
  });

  test("a gateway that never answers: nothing is recorded, and the payment is held so a quick retry cannot send it twice", async () => {
    const customer = await payingCustomer(app, "no-answer@example.com");
    const identity = { email: customer.email, uid: customer.uid };
    const answer = await withGatewayRefund(
      async () => {
        throw new Error("connection reset");
      },
      () => refund(identity),
    );
    expect(answer).toMatchObject({ Success: false, payments: [] });
    expect(answer.Message).toContain("the gateway did not answer");
    expect(answer.gatewayFailure).toMatchObject({ refused: false });
    expect(answer.gatewayFailure?.detail).toBeUndefined();
    expect((await subscriptionOf(context, customer.userId))?.status).toBe("ACTIVE");
    const retry = await refund(identity);
    expect(retry).toMatchObject({ Success: false });
    expect(retry.Message).toContain("is being refunded by another request");
    expect(retry.reason).toMatchObject({ code: "busy", values: { retryAt: expect.any(String) } });
    // An operator reading Russian gets the same refusal in Russian, the moment on Moscow's clock.
    const inRussian = await panelRefund(app, { ...(await staff.admin()), cookie: "i18next=ru" }, identity);
    const held = answer.gatewayFailure?.transactionId;
    expect(inRussian.Message).toMatch(
      new RegExp(
        `^Ничего не возвращено\\. Платёж ${held} прямо сейчас возвращается другим запросом\\. Обновите карточку клиента или повторите после .+ по московскому времени\\.$`,
      ),
    );
    await advanceDays(app, 11 / (24 * 60));
    expect(await refund(identity)).toMatchObject({ Success: true, total: 1 });
    expect(await refundsAtBank(customer.accountId)).toHaveLength(1);
  });
});

describe("two presses at once", () => {
  test("never refund a payment twice: one refunds everything, the other refuses", async () => {
    const customer = await payingCustomer(app, "double-press@example.com");
    await renew(app, 1.5);
    const identity = { email: customer.email, uid: customer.uid };
    let release: () => void = () => {};
    const otherAnswered = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const answers = await withGatewayRefund(
      async (transactionId, amount, receipt) => {
        // The first call waits until the other press has answered (or a second has
        // passed, should it be stuck behind this one), so the two truly overlap.
        if (calls++ === 0)
          await Promise.race([otherAnswered, new Promise((resolve) => setTimeout(resolve, 1_000))]);
        return realRefund(transactionId, amount, receipt);
      },
      () => {
        const headers = staff.admin();
        const press = async () => {
          const answer = await panelRefund(app, await headers, identity);
          if (!answer.Success) release();
          return answer;
        };
        return Promise.all([press(), press()]);
      },
    );
    expect(answers.map((answer) => answer.Success).sort()).toEqual([false, true]);
    expect(answers.find((answer) => !answer.Success)?.Message).toContain(
      "is being refunded by another request",
    );
    const bank = await refundsAtBank(customer.accountId);
    expect(bank.map((entry) => entry.amount)).toEqual([150]);
    expect(calls).toBe(1);
    expect((await subscriptionOf(context, customer.userId))?.status).toBe("EXPIRED");
  });
});
