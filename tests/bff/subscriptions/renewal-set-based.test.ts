import { describe, expect, test } from "vitest";
import { createSandboxGateway } from "../../../bff/adapters/sandbox/gateway";
import type { AppContext } from "../../../bff/context";
import { deliverDueMail } from "../../../bff/jobs/mail-worker";
import { type Attempt, claimDue } from "../../../bff/jobs/renewal-claim";
import type { ChargeOutcome } from "../../../bff/modules/payments/providers/provider";
import { providerOf } from "../../../bff/modules/payments/providers/provider-of";
import { receiptOf } from "../../../bff/modules/payments/receipts/receipt";
import { applyRenewalOutcome } from "../../../bff/modules/payments/renewals/notification-batches";
import {
  chargeSavedMethod,
  settleCharge,
  settleChargeAnswers,
} from "../../../bff/modules/payments/renewals/saved-card";
import { nextChargeAmount, nextChargeAmounts } from "../../../bff/modules/subscriptions/next-charge";
import { queueRenewalNotices } from "../../../bff/modules/subscriptions/renewal-notices";
import { addMonths } from "../../../bff/platform/calendar";
import type { HttpClient } from "../../../bff/platform/http-client";
import type { Database } from "../../../db/database";
import { payments } from "../../../db/queries/payments";
import type { SubscriptionRow } from "../../../db/queries/subscriptions";
import { request } from "../../helpers/app";
import { dueCustomers, subscriptionOf, type TestApp } from "../../helpers/due-renewals";
import { runBilling } from "../../helpers/payments";

type Counts = { statements: number; transactions: number };

/**
 * Counts what reaches the database while `work` runs: statements (get, all, run, exec)
 * and transactions begun (turns included). Savepoints are transactions inside one.
 */
async function counted<T>(database: Database, work: () => Promise<T>): Promise<{ result: T } & Counts> {
  const counts: Counts = { statements: 0, transactions: 0 };
  const target = database as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  for (const [method, counter] of [
    ["get", "statements"],
    ["all", "statements"],
    ["run", "statements"],
    ["exec", "statements"],
    ["transaction", "transactions"],
    ["inTurn", "transactions"],
  ] as const) {
    const original = target[method] as (...args: unknown[]) => unknown;
    originals.set(method, original);
    target[method] = (...args: unknown[]) => {
      counts[counter]++;
      return original.apply(database, args);
    };
  }
  try {
    return { result: await work(), ...counts };
  } finally {
    for (const [method, original] of originals) target[method] = original;
  }
}

const mailsOf = (database: Database, kind: string) =>
  database.all<{ event_key: string; data: string; recipient: string; language: string }>(
    "SELECT event_key, data, recipient, language FROM mail_outbox WHERE kind = ? ORDER BY event_key",
    [kind],
  );

/** Charges each attempt at the sandbox, whose Pay notification reaches the shop before the answer. */
const chargeAll = (context: AppContext, attempts: readonly Attempt[]) =>
  Promise.all(
    attempts.map(async ({ payment, subscription }) => ({
      payment,
      answer: await chargeSavedMethod(
        providerOf(context.payments, payment.provider),
        payment,
        subscription.card_token ?? "",
        await receiptOf(context, payment),
      ),
    })),
  );

/** A paid answer as the provider gives it, for recording without a bank. */
const paidAnswer = (transactionId: number): ChargeOutcome => ({
  status: "paid",
  transactionId: String(transactionId),
});

describe("a renewal claim is a few statements whatever the batch's size", () => {
  test("5 and 25 due renewals are claimed in the same few statements, each attempt committed under the lease", async () => {
    const testApp = await dueCustomers(30, "claimsize");
    const { context } = testApp;
    const small = await counted(context.database, () => claimDue(context, "lease-small", 5));
    const large = await counted(context.database, () => claimDue(context, "lease-large", 25));
    expect(small.result.toCharge).toHaveLength(5);
    expect(large.result.toCharge).toHaveLength(25);
    expect(large.statements).toBe(small.statements);
    expect(large.statements).toBeLessThanOrEqual(7);
    // Committed, pending, under the lease, numbered (subscription, period, attempt), priced by the rule.
    for (const { payment, subscription, receipt } of large.result.toCharge) {
      const stored = await payments.byInvoice(context.database, payment.invoice_id);
      expect(stored).toMatchObject({ status: "pending", kind: "renewal", attempt: 1, period_index: 0 });
      expect(payment.invoice_id).toBe(`renewal-${subscription.id}-0-1`);
      expect(payment.amount).toBe(
        await nextChargeAmount(context.database, subscription, context.clock.now()),
      );
      expect(receipt).toEqual(await receiptOf(context, payment));
      const claimedBy = await context.database.get<{ claimed_by: string }>(
        "SELECT claimed_by FROM payments WHERE id = ?",
        [payment.id],
      );
      expect(claimedBy?.claimed_by).toBe("lease-large");
    }
    // Taken once: nothing is due while the attempts wait for the bank.
    expect((await claimDue(context, "lease-again", 30)).toCharge).toEqual([]);
  });

  test("a second pending attempt of one subscription cannot be committed", async () => {
    const testApp = await dueCustomers(1, "onepending");
    const { context } = testApp;
    const [attempt] = (await claimDue(context, "lease-one", 1)).toCharge;
    if (!attempt) throw new Error("nothing was claimed");
    const { payment } = attempt;
    await expect(
      payments.insert(
        context.database,
        {
          userId: payment.user_id,
          subscriptionId: payment.subscription_id,
          kind: "renewal",
          invoiceId: `${payment.invoice_id}-again`,
          accountId: payment.account_id,
          amount: payment.amount,
          currency: payment.currency,
          description: payment.description,
          periodIndex: payment.period_index,
          attempt: 2,
        },
        context.clock.now(),
      ),
    ).rejects.toThrow();
  });

  test("a batch is priced as each renewal alone: promos, referrals, expired promos", async () => {
    const testApp = await dueCustomers(8, "pricing");
    const { context } = testApp;
    const { database } = context;
    await runBilling(testApp.app); // the first renewals: the invitees now have paid charges of their own
    const users = (await database.all<{ id: number }>("SELECT id FROM users ORDER BY id")).map(
      (row) => row.id,
    );
    const now = context.clock.now();
    const [a, b, c, d, e, f] = users as [number, number, number, number, number, number];
    for (const [inviter, invitee] of [
      [a, b],
      [a, c],
      [d, e],
    ] as const)
      await database.run("INSERT INTO invitations (inviter_id, invitee_id, created_at) VALUES (?, ?, ?)", [
        inviter,
        invitee,
        now,
      ]);
    await database.run(
      `INSERT INTO promos (promo_code, promo_type, is_available, discount_percent, expiration_date, created_at)
       VALUES ('VALID1', 'renewal', 1, 30, '2999-01-01', ?), ('GONE01', 'renewal', 1, 50, '2000-01-01', ?)`,
      [now, now],
    );
    const promo = async (code: string) =>
      (await database.get<{ id: number }>("SELECT id FROM promos WHERE promo_code = ?", [code]))?.id ?? null;
    await database.run(
      "UPDATE subscriptions SET promo_id = ?, promo_discount_percent = 30 WHERE user_id IN (?, ?)",
      [await promo("VALID1"), a, f],
    );
    await database.run(
      "UPDATE subscriptions SET promo_id = ?, promo_discount_percent = 50 WHERE user_id = ?",
      [await promo("GONE01"), d],
    );
    const batch = await database.all<SubscriptionRow>("SELECT * FROM subscriptions ORDER BY id");
    const together = await nextChargeAmounts(database, batch, now);
    const alone = new Map<number, number>();
    for (const subscription of batch)
      alone.set(subscription.id, await nextChargeAmount(database, subscription, now));
    expect(together).toEqual(alone);
    // The case is not trivial: some are discounted, and by different amounts.
    expect(new Set(alone.values()).size).toBeGreaterThan(2);
  });
});

describe("answers of a batch are recorded together, with every effect of recording them one by one", () => {
  test("20 paid renewals: a few statements in one transaction; the same periods, payments and receipt mails", async () => {
    const testApp = await dueCustomers(40, "together");
    const { context } = testApp;
    const { database } = context;
    const claimed = (await claimDue(context, "lease-together", 40)).toCharge;
    expect(claimed).toHaveLength(40);
    const together = claimed.slice(0, 20);
    const alone = claimed.slice(20);
    const transactionOf = (attempt: Attempt) => 9_000_000 + attempt.payment.id;
    const settledAt = context.clock.now();
    const recorded = await counted(database, () =>
      settleChargeAnswers(
        database,
        together.map((attempt) => ({ payment: attempt.payment, answer: paidAnswer(transactionOf(attempt)) })),
        settledAt,
      ),
    );
    expect(recorded.result).toBe(20);
    expect(recorded.transactions).toBeLessThanOrEqual(2); // the batch, and its mails' savepoint
    expect(recorded.statements).toBeLessThanOrEqual(8);
    // The same answers recorded one by one, as before: the effects must be the same.
    await database.transaction(async () => {
      for (const attempt of alone)
        await settleCharge(database, attempt.payment, paidAnswer(transactionOf(attempt)), settledAt);
    });

    const mails = new Map(
      (await mailsOf(database, "payment_succeeded")).map((mail) => [mail.event_key, mail] as const),
    );
    const effectsOf = (attempts: Attempt[]) =>
      Promise.all(
        attempts.map(async (attempt) => {
          const { payment, subscription } = attempt;
          const after = await subscriptionOf(database, subscription.id);
          const stored = await payments.byInvoice(database, payment.invoice_id);
          const user = await database.get<{ email: string; language: string }>(
            "SELECT email, language FROM users WHERE id = ?",
            [subscription.user_id],
          );
          const mail = mails.get(`payment_succeeded:payment:${payment.id}`);
          const data = JSON.parse(mail?.data ?? "{}") as Record<string, unknown>;
          return {
            payment: stored?.status,
            isItsTransaction: stored?.transaction_id === String(transactionOf(attempt)),
            isPeriodAdded:
              after.end_date === addMonths(subscription.end_date ?? 0, subscription.tariff_months),
            isNextChargeAtItsEnd: after.next_charge_at === after.end_date,
            nextPeriodIndex: after.next_period_index,
            dunning: after.dunning_attempts,
            subscription: after.status,
            isMailToTheCustomer: mail?.recipient === user?.email && mail?.language === user?.language,
            mail: {
              ...data,
              paidAt: data.paidAt === settledAt,
              paidUntil: data.paidUntil === after.end_date,
              receiptUrl: String(data.receiptUrl).endsWith(`/payments/${payment.id}/receipt`),
            },
          };
        }),
      );
    const expected = {
      payment: "completed",
      isItsTransaction: true,
      isPeriodAdded: true,
      isNextChargeAtItsEnd: true,
      nextPeriodIndex: 1,
      dunning: 0,
      subscription: "ACTIVE",
      isMailToTheCustomer: true,
      mail: {
        charge: { amount: together[0]?.payment.amount, currency: "RUB" },
        paidAt: true,
        what: "subscription",
        tariffMonths: 1,
        paidUntil: true,
        receiptUrl: true,
      },
    };
    expect(await effectsOf(alone)).toEqual(alone.map(() => expected));
    expect(await effectsOf(together)).toEqual(together.map(() => expected));
    expect(mails.size).toBe(40);
  });
});

describe("Pay notifications of a pass", () => {
  test("that arrive in one turn of the event loop are applied in one transaction", async () => {
    const testApp = await dueCustomers(20, "onebatch");
    const { context } = testApp;
    const { database } = context;
    const claimed = (await claimDue(context, "lease-onebatch", 20)).toCharge;
    const now = context.clock.now();
    // Each as the server reads it from its own connection: a task of the loop of its own,
    // all of them ready in the same turn. On SQLite nothing in a transaction yields to the
    // loop, so a notification applied at once would be a transaction (and a commit) alone.
    const applied = await counted(database, () =>
      Promise.all(
        claimed.map(
          ({ payment }) =>
            new Promise<void>((resolve, reject) =>
              setImmediate(() =>
                applyRenewalOutcome(database, {
                  kind: "pay",
                  payment,
                  transactionId: String(7_000_000 + payment.id),
                  card: { token: `tk_${payment.id}`, lastFour: "4242" },
                  reasonCode: null,
                  reason: null,
                  now,
                }).then(resolve, reject),
              ),
            ),
        ),
      ),
    );
    expect(applied.transactions).toBeLessThanOrEqual(2); // the batch, and its mails' savepoint
    const completed = await database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM payments WHERE kind = 'renewal' AND status = 'completed'",
    );
    expect(completed?.count).toBe(20);
  });
});

describe("the notices' batches", () => {
  test("with nothing to announce, take no billing turn that claims would wait for", async () => {
    const testApp = await dueCustomers(3, "quietnotices");
    const { context } = testApp;
    const looked = await counted(context.database, () => queueRenewalNotices(context, context.clock.now()));
    expect(looked).toMatchObject({ result: 0, statements: 1, transactions: 0 });
    // One due without a notice is announced, in the turn.
    await context.database.run(
      "DELETE FROM renewal_notices WHERE id = (SELECT MIN(id) FROM renewal_notices)",
    );
    const announced = await counted(context.database, () =>
      queueRenewalNotices(context, context.clock.now()),
    );
    expect(announced.result).toBe(1);
    expect(announced.transactions).toBeGreaterThan(0);
  });
});

describe("the receipt mails of a pass", () => {
  test("are delivered by the embedded outbox in one statement, all of them", async () => {
    const testApp = await dueCustomers(12, "outbox");
    const { context } = testApp;
    const claimed = (await claimDue(context, "lease-outbox", 12)).toCharge;
    await settleChargeAnswers(
      context.database,
      claimed.map(({ payment }) => ({ payment, answer: paidAnswer(8_000_000 + payment.id) })),
      context.clock.now(),
    );
    expect(context.mail.kind).toBe("outbox");
    const delivered = await counted(context.database, () => deliverDueMail(context));
    expect(delivered.result).toEqual({ sent: 12, failed: 0, retried: 0 });
    expect(delivered).toMatchObject({ statements: 1, transactions: 0 });
    const pending = await context.database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM mail_outbox WHERE status <> 'sent'",
    );
    expect(pending?.count).toBe(0);
    expect(await deliverDueMail(context)).toEqual({ sent: 0, failed: 0, retried: 0 });
  });
});

/** A bank that charges and keeps its notifications back, for the test to deliver later. */
function bankKeepingNotifications(context: AppContext) {
  const { sandbox } = context.payments;
  if (!sandbox) throw new Error("these tests need the sandbox gateway");
  const kept: { kind: string; body: string; headers: Headers }[] = [];
  const http: HttpClient = {
    fetch: async (input) => {
      const sent = input as Request;
      kept.push({
        kind: new URL(sent.url).pathname.split("/").at(-1) ?? "",
        body: await sent.text(),
        headers: sent.headers,
      });
      return Response.json({ code: 0 });
    },
    attachLoopback: () => undefined,
  };
  const bank = createSandboxGateway(sandbox.ledger, context.clock, http, {
    apiSecret: context.config.cloudPaymentsApiSecret,
    notificationUrl: "http://kept.invalid/notifications",
  });
  const gateway = {
    ...context.payments.gateway,
    chargeToken: ((charge, receipt) =>
      bank.chargeToken({
        ...charge,
        JsonData: { CloudPayments: { CustomerReceipt: receipt } },
      })) as typeof context.payments.gateway.chargeToken,
  };
  return { kept, gateway };
}

const deliver = (app: TestApp["app"], kept: { kind: string; body: string; headers: Headers }) =>
  app.handle(
    request(`/api/payments/cloudpayments/${kept.kind}`, {
      method: "POST",
      headers: kept.headers,
      body: kept.body,
    }),
  );

describe("one settlement per charge, whichever of the answer and the notification comes first", () => {
  test("the notification first: it settles; the pass's recording then reads once and counts every payment", async () => {
    const testApp = await dueCustomers(6, "notefirst");
    const { context } = testApp;
    const claimed = (await claimDue(context, "lease-notefirst", 6)).toCharge;
    const answered = await chargeAll(context, claimed);
    // The sandbox notified before answering: every attempt is already settled.
    for (const { payment } of claimed)
      expect((await payments.byInvoice(context.database, payment.invoice_id))?.status).toBe("completed");
    const before = await Promise.all(
      claimed.map(({ subscription }) => subscriptionOf(context.database, subscription.id)),
    );
    const recorded = await counted(context.database, () =>
      settleChargeAnswers(context.database, answered, context.clock.now()),
    );
    expect(recorded.result).toBe(6);
    expect(recorded).toMatchObject({ statements: 1, transactions: 0 });
    // Settled once: one period added, one receipt mail each.
    for (const [index, { subscription }] of claimed.entries()) {
      const after = await subscriptionOf(context.database, subscription.id);
      expect(after).toEqual(before[index]);
      expect(after.end_date).toBe(addMonths(subscription.end_date ?? 0, subscription.tariff_months));
    }
    expect(await mailsOf(context.database, "payment_succeeded")).toHaveLength(6);
  });

  test("the answer first: it settles; the notification then costs one read and changes nothing", async () => {
    const testApp = await dueCustomers(3, "answerfirst");
    const { context, app } = testApp;
    const claimed = (await claimDue(context, "lease-answerfirst", 3)).toCharge;
    const { kept, gateway } = bankKeepingNotifications(context);
    const answered = await Promise.all(
      claimed.map(async ({ payment, subscription }) => ({
        payment,
        answer: await chargeSavedMethod(
          providerOf({ gateway, health: context.payments.health }, payment.provider),
          payment,
          subscription.card_token ?? "",
          await receiptOf(context, payment),
        ),
      })),
    );
    expect(await settleChargeAnswers(context.database, answered, context.clock.now())).toBe(3);
    expect(kept.map((notification) => notification.kind)).toEqual(["pay", "pay", "pay"]);
    const settled = await Promise.all(
      claimed.map(({ payment }) => payments.byInvoice(context.database, payment.invoice_id)),
    );
    const subscriptionsAfter = await Promise.all(
      claimed.map(({ subscription }) => subscriptionOf(context.database, subscription.id)),
    );
    for (const notification of kept) {
      const handled = await counted(context.database, () => deliver(app, notification));
      expect(handled.result.status).toBe(200);
      expect(await handled.result.json()).toEqual({ code: 0 });
      expect(handled).toMatchObject({ statements: 1, transactions: 0 });
    }
    expect(
      await Promise.all(
        claimed.map(({ payment }) => payments.byInvoice(context.database, payment.invoice_id)),
      ),
    ).toEqual(settled);
    expect(
      await Promise.all(claimed.map(({ subscription }) => subscriptionOf(context.database, subscription.id))),
    ).toEqual(subscriptionsAfter);
    expect(await mailsOf(context.database, "payment_succeeded")).toHaveLength(3);
    const events = await context.database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM webhook_events WHERE kind = 'pay' AND invoice_id LIKE 'renewal-%'",
    );
    expect(events?.count).toBe(0);
  });

  test("notifications arriving together are applied together, each once, with every effect", async () => {
    const testApp = await dueCustomers(20, "together-notes");
    const { context, app } = testApp;
    const claimed = (await claimDue(context, "lease-notes", 20)).toCharge;
    const { kept, gateway } = bankKeepingNotifications(context);
    for (const { payment, subscription } of claimed)
      await chargeSavedMethod(
        providerOf({ gateway, health: context.payments.health }, payment.provider),
        payment,
        subscription.card_token ?? "",
        await receiptOf(context, payment),
      );
    expect(kept).toHaveLength(20);
    // Each delivered twice at once, as a gateway that sends again does.
    const handled = await counted(context.database, () =>
      Promise.all([...kept, ...kept].map((notification) => deliver(app, notification))),
    );
    for (const response of handled.result) expect(await response.json()).toEqual({ code: 0 });
    expect(handled.transactions).toBeLessThan(10);
    for (const { payment, subscription } of claimed) {
      expect((await payments.byInvoice(context.database, payment.invoice_id))?.status).toBe("completed");
      const after = await subscriptionOf(context.database, subscription.id);
      expect(after.end_date).toBe(addMonths(subscription.end_date ?? 0, subscription.tariff_months));
      expect(after.next_period_index).toBe(1);
    }
    expect(await mailsOf(context.database, "payment_succeeded")).toHaveLength(20);
  });
});
