import { describe, expect, test } from "vitest";
import { receiptPath } from "../../../bff/modules/mail/links";
import type { Language } from "../../../core/languages";
import { apiOf, dataOf, identityOf, sessionOf } from "../../helpers/api";
import { makeTestApp, request } from "../../helpers/app";
import { fixture, referralCodeOf, type SignedIn, signIn } from "../../helpers/customers";
import { cards, notifyAsGateway, order, passDays, payWithCard, runBilling } from "../../helpers/payments";
import { panelRefund, staffHeaders } from "../../helpers/refunds";

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;
type Customer = SignedIn & { userId: number; language: Language };

type Mail = {
  kind: string;
  language: string;
  recipient: string;
  event_key: string;
  data: Record<string, unknown>;
};

type Payment = {
  id: number;
  kind: string;
  amount: number;
  currency: string;
  status: string;
  is_trial: number;
  tariff_months: number | null;
  transaction_id: string | null;
  invoice_id: string;
  account_id: string;
  refunded_amount: number;
  updated_at: number;
};

type Subscription = {
  id: number;
  status: string;
  end_date: number;
  next_charge_at: number | null;
  tariff_months: number;
  trial_days: number;
  updated_at: number;
};

const dayMs = 86_400_000;

const mailsOf = async ({ context }: TestApp, userId: number): Promise<Mail[]> =>
  (
    await context.database.all<Omit<Mail, "data"> & { data: string }>(
      "SELECT kind, language, recipient, event_key, data FROM mail_outbox WHERE user_id = ? ORDER BY id",
      [userId],
    )
  ).map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));

/** The event mails, in order; the pre-charge notices each renewal needs are tested in renewal-notices.test.ts. */
const kindsOf = async (world: TestApp, userId: number) =>
  (await mailsOf(world, userId)).map((mail) => mail.kind).filter((kind) => kind !== "renewal_notice");

/** The one message of `kind` (the test fails when there are more or none). */
async function onlyMail(world: TestApp, userId: number, kind: string): Promise<Mail> {
  const found = (await mailsOf(world, userId)).filter((mail) => mail.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0] as Mail;
}

const paymentsOf = ({ context }: TestApp, userId: number) =>
  context.database.all<Payment>("SELECT * FROM payments WHERE user_id = ? ORDER BY id", [userId]);

const subscriptionOf = async ({ context }: TestApp, userId: number) =>
  (await context.database.get<Subscription>(
    "SELECT * FROM subscriptions WHERE user_id = ? ORDER BY id DESC LIMIT 1",
    [userId],
  )) as Subscription;

/** A customer registered with `language` (the browser's at sign-up), `trialDays` before the first full charge. */
async function customer(world: TestApp, email: string, language: Language, trialDays = 1): Promise<Customer> {
  const signedIn = await signIn(world.app, email, {
    period: trialDays,
    headers: { "accept-language": language },
  });
  const userId = (
    await world.context.database.get<{ id: number }>("SELECT id FROM users WHERE email = ?", [email])
  )?.id as number;
  return { ...signedIn, userId, language };
}

async function payTrial(world: TestApp, who: Customer, card = cards.success, tariff = 1) {
  const widget = await order(world.app, who, tariff, (await subscriptionOf(world, who.userId)).trial_days);
  expect((await payWithCard(world.app, widget.invoiceId, card)).success).toBe(true);
  return widget;
}

/** A Pay notification for one of our payments, signed as the gateway signs it. */
function payNotification(world: TestApp, payment: Payment) {
  return notification(world, "pay", {
    TransactionId: String(payment.transaction_id),
    Amount: (payment.amount / 100).toFixed(2),
    Currency: payment.currency,
    InvoiceId: payment.invoice_id,
    AccountId: payment.account_id,
    OperationType: "Payment",
    Status: "Completed",
  });
}

function refundNotification(world: TestApp, payment: Payment, refundTransactionId: number, amount: number) {
  return notification(world, "refund", {
    TransactionId: String(refundTransactionId),
    PaymentTransactionId: String(payment.transaction_id),
    Amount: (amount / 100).toFixed(2),
    Currency: payment.currency,
    InvoiceId: payment.invoice_id,
    AccountId: payment.account_id,
    OperationType: "Refund",
  });
}

async function notification(world: TestApp, kind: "pay" | "refund", fields: Record<string, string>) {
  const answer = await notifyAsGateway(world.app, world.context.config.cloudPaymentsApiSecret, kind, fields);
  expect(answer.status).toBe(200);
  return answer.code;
}

describe("payments", () => {
  test("a trial, an extra device and a renewal: one message each, with the rows' amounts and dates", async () => {
    const world = await makeTestApp();
    const ru = await customer(world, "trial-renewal@example.com", "ru");
    await payTrial(world, ru);

    const trial = await onlyMail(world, ru.userId, "trial_started");
    const started = await subscriptionOf(world, ru.userId);
    expect(trial).toMatchObject({ language: "ru", recipient: ru.email });
    expect(trial.data).toEqual({
      trialDays: 1,
      firstChargeAt: started.next_charge_at,
      firstCharge: { amount: 15_000, currency: "RUB" },
      tariffMonths: 1,
    });
    // The same amount and date the cabinet shows as the next charge.
    const api = apiOf(world.app);
    const cabinet = await dataOf(api.profile.post(identityOf(ru), sessionOf(ru)));
    expect((cabinet.userInfo.amount ?? 0) * 100).toBe(15_000);
    expect(Date.parse(cabinet.userInfo.nextTransactionDate ?? "")).toBe(started.next_charge_at);

    expect((await api.profile.addDevice.post(identityOf(ru), sessionOf(ru))).status).toBe(200);
    const device = (await paymentsOf(world, ru.userId)).find(
      (payment) => payment.kind === "device",
    ) as Payment;
    expect((await onlyMail(world, ru.userId, "payment_succeeded")).data).toEqual({
      charge: { amount: device.amount, currency: "RUB" },
      paidAt: device.updated_at,
      what: "device",
      tariffMonths: null,
      paidUntil: (await subscriptionOf(world, ru.userId)).end_date,
      receiptUrl: receiptPath(device.id),
    });
    // The link is the cabinet's receipt page of that payment, followed as the mail writes it.
    const receipt = await world.app.handle(
      request(receiptPath(device.id), { headers: { cookie: ru.cookie } }),
    );
    expect(receipt.status).toBe(200);

    await passDays(world.app, 1.5);
    await runBilling(world.app);
    const renewal = (await paymentsOf(world, ru.userId)).find(
      (payment) => payment.kind === "renewal",
    ) as Payment;
    expect(renewal.status).toBe("completed");
    const succeeded = (await mailsOf(world, ru.userId)).filter((mail) => mail.kind === "payment_succeeded");
    expect(succeeded).toHaveLength(2);
    expect(succeeded[1]?.data).toEqual({
      charge: { amount: renewal.amount, currency: "RUB" },
      paidAt: renewal.updated_at,
      what: "subscription",
      tariffMonths: 1,
      paidUntil: (await subscriptionOf(world, ru.userId)).end_date,
      receiptUrl: receiptPath(renewal.id),
    });
    expect(renewal.amount).toBe(20_000); // the month and the extra device
    expect(succeeded[1]?.event_key).toBe(`payment_succeeded:payment:${renewal.id}`);
    expect(await kindsOf(world, ru.userId)).toEqual([
      "trial_started",
      "payment_succeeded",
      "payment_succeeded",
    ]);
  });

  test("a redelivered payment notification queues nothing more", async () => {
    const world = await makeTestApp();
    const en = await customer(world, "redelivered@example.com", "en");
    await payTrial(world, en);
    const first = (await paymentsOf(world, en.userId))[0] as Payment;
    expect(await payNotification(world, first)).toBe(0);
    expect(await payNotification(world, first)).toBe(0);
    await passDays(world.app, 1.5);
    const renewal = (await paymentsOf(world, en.userId)).find(
      (payment) => payment.kind === "renewal",
    ) as Payment;
    expect(await payNotification(world, renewal)).toBe(0);
    expect(await kindsOf(world, en.userId)).toEqual(["trial_started", "payment_succeeded"]);
  });

  test("a customer who had the trial pays the full price first: payment_succeeded, not trial_started", async () => {
    const world = await makeTestApp();
    const kk = await customer(world, "second-time@example.com", "kk");
    await payTrial(world, kk);
    expect((await apiOf(world.app).profile.removeCard.post(identityOf(kk), sessionOf(kk))).status).toBe(200);
    await passDays(world.app, 1.5);
    expect((await subscriptionOf(world, kk.userId)).status).toBe("EXPIRED");
    const widget = await order(world.app, kk, 3, 1);
    expect(widget.amount).toBe(2_400);
    expect((await payWithCard(world.app, widget.invoiceId, cards.success)).success).toBe(true);
    const full = (await paymentsOf(world, kk.userId)).at(-1) as Payment;
    expect(await kindsOf(world, kk.userId)).toEqual([
      "trial_started",
      "card_removed",
      "subscription_ended",
      "payment_succeeded",
    ]);
    expect(await onlyMail(world, kk.userId, "payment_succeeded")).toMatchObject({
      language: "kk",
      data: {
        charge: { amount: 240_000, currency: "KZT" },
        paidAt: full.updated_at,
        what: "subscription",
        tariffMonths: 3,
        paidUntil: (await subscriptionOf(world, kk.userId)).end_date,
        receiptUrl: receiptPath(full.id),
      },
    });
  });

  test("a renewal made free by referrals is told too, with its zero receipt", async () => {
    const world = await makeTestApp();
    const inviter = await customer(world, "free-inviter@example.com", "en");
    const code = await referralCodeOf(world.app, inviter);
    await payTrial(world, inviter);
    for (let index = 0; index < 4; index++)
      await fixture(world.app, {
        email: `free-invitee-${index}@example.com`,
        status: "ACTIVE",
        referralCode: code,
      });
    expect((await passDays(world.app, 1.5)).free).toBe(1);
    const renewal = (await paymentsOf(world, inviter.userId)).find(
      (payment) => payment.kind === "renewal",
    ) as Payment;
    expect((await onlyMail(world, inviter.userId, "payment_succeeded")).data).toMatchObject({
      charge: { amount: 0, currency: "RUB" },
      what: "subscription",
      paidUntil: (await subscriptionOf(world, inviter.userId)).end_date,
      receiptUrl: receiptPath(renewal.id),
    });
  });

  test("an anonymous trial bound at sign-in starts the trial for that account", async () => {
    const world = await makeTestApp();
    const prepaidToken = `${"7c6d5e".repeat(5)}1_5_1`;
    const api = apiOf(world.app);
    const widget = await dataOf(api.shop.order.post({ prepaidToken, tariff: 1, period: 5 }));
    expect((await payWithCard(world.app, widget.invoiceId, cards.success)).success).toBe(true);
    const buyer = await signIn(world.app, "prepaid-buyer@example.com", {
      headers: { "accept-language": "zh" },
    });
    expect(await world.context.database.get("SELECT COUNT(*) AS count FROM mail_outbox")).toEqual({
      count: 0,
    });
    const { demoToken } = await import("../../helpers/customers");
    const token = await demoToken(world.app, buyer.email);
    const attached = await api.register.post(
      { ...token, period: 30, tariff: 1, prepaidToken },
      { headers: { "accept-language": "zh" } },
    );
    expect(attached.status).toBe(200);
    const userId = Number(
      (
        await world.context.database.get<{ id: number }>("SELECT id FROM users WHERE email = ?", [
          buyer.email,
        ])
      )?.id,
    );
    const trial = await onlyMail(world, userId, "trial_started");
    expect(trial.language).toBe("zh");
    expect(trial.data).toEqual({
      trialDays: 5,
      firstChargeAt: (await subscriptionOf(world, userId)).next_charge_at,
      firstCharge: { amount: 15_000, currency: "RUB" },
      tariffMonths: 1,
    });
  });
});

describe("a message never undoes the money change it tells of", () => {
  test("with the outbox unusable, the trial is still paid and the subscription still starts", async () => {
    const world = await makeTestApp();
    // PostgreSQL refuses to drop a table another references (the renewal notices) unless told to.
    const { database } = world.context;
    await database.exec(`DROP TABLE mail_outbox${database.engine === "postgres" ? " CASCADE" : ""}`);
    const en = await customer(world, "outbox-broken@example.com", "en");
    await payTrial(world, en);
    expect((await paymentsOf(world, en.userId))[0]?.status).toBe("completed");
    expect((await subscriptionOf(world, en.userId)).status).toBe("ACTIVE");
  });
});

describe("declined renewals", () => {
  test("two retries with access kept, then the end: three payment_failed and one subscription_ended", async () => {
    const world = await makeTestApp();
    const zh = await customer(world, "dunning@example.com", "zh");
    await payTrial(world, zh, cards.firstThenDeclined);
    const dueAt = (await subscriptionOf(world, zh.userId)).end_date;

    await passDays(world.app, 1.5);
    const failed = async () =>
      (await mailsOf(world, zh.userId)).filter((mail) => mail.kind === "payment_failed");
    const attempts = async () =>
      (await paymentsOf(world, zh.userId)).filter((payment) => payment.kind === "renewal");
    expect(await failed()).toHaveLength(1);
    expect((await failed())[0]).toMatchObject({ language: "zh", recipient: zh.email });
    expect((await failed())[0]?.data).toEqual({
      charge: { amount: 15_000, currency: "RUB" },
      failedAt: (await attempts())[0]?.updated_at,
      nextRetryAt: dueAt + dayMs,
      accessUntil: dueAt + 3 * dayMs,
    });
    expect((await subscriptionOf(world, zh.userId)).next_charge_at).toBe(dueAt + dayMs);

    await passDays(world.app, 1);
    expect((await failed())[1]?.data).toMatchObject({
      nextRetryAt: dueAt + 3 * dayMs,
      accessUntil: dueAt + 3 * dayMs,
    });
    expect((await subscriptionOf(world, zh.userId)).next_charge_at).toBe(dueAt + 3 * dayMs);

    await passDays(world.app, 2);
    await runBilling(world.app);
    const ended = await subscriptionOf(world, zh.userId);
    expect(ended.status).toBe("EXPIRED");
    expect((await failed())[2]?.data).toEqual({
      charge: { amount: 15_000, currency: "RUB" },
      failedAt: (await attempts())[2]?.updated_at,
      nextRetryAt: null,
      accessUntil: null,
    });
    expect((await onlyMail(world, zh.userId, "subscription_ended")).data).toEqual({
      endedAt: ended.updated_at,
    });
    expect(await kindsOf(world, zh.userId)).toEqual([
      "trial_started",
      "payment_failed",
      "payment_failed",
      "payment_failed",
      "subscription_ended",
    ]);
  });

  test("a hard decline ends it at once: no retry", async () => {
    const world = await makeTestApp();
    const kk = await customer(world, "hard-decline@example.com", "kk");
    await payTrial(world, kk, cards.expiredLater);
    await passDays(world.app, 1.5);
    const ended = await subscriptionOf(world, kk.userId);
    expect(ended.status).toBe("EXPIRED");
    expect(await kindsOf(world, kk.userId)).toEqual([
      "trial_started",
      "payment_failed",
      "subscription_ended",
    ]);
    expect((await onlyMail(world, kk.userId, "payment_failed")).data).toMatchObject({
      charge: { amount: 90_000, currency: "KZT" },
      nextRetryAt: null,
      accessUntil: null,
    });
    expect((await onlyMail(world, kk.userId, "subscription_ended")).data).toEqual({
      endedAt: ended.updated_at,
    });
  });
});

describe("the customer's own steps", () => {
  test("cancel: access until the end; cancelling again after a resume is a second event; the period running out ends it, told once", async () => {
    const world = await makeTestApp();
    const en = await customer(world, "canceller@example.com", "en", 10);
    await payTrial(world, en);
    const { subscriptions } = apiOf(world.app);
    const cancel = () => subscriptions.cancel.post(identityOf(en), sessionOf(en));
    expect((await cancel()).status).toBe(200);
    expect((await cancel()).status).toBe(409);
    const cancelled = await subscriptionOf(world, en.userId);
    expect(await onlyMail(world, en.userId, "subscription_canceled")).toMatchObject({
      language: "en",
      recipient: en.email,
      data: { accessUntil: cancelled.end_date },
    });
    world.clock.advance(60_000);
    expect((await subscriptions.resume.post(identityOf(en), sessionOf(en))).status).toBe(200);
    expect((await cancel()).status).toBe(200);
    expect(await kindsOf(world, en.userId)).toEqual([
      "trial_started",
      "subscription_canceled",
      "subscription_canceled",
    ]);
    // A cancelled subscription whose period has run out is EXPIRED (DESIGN §5), told once.
    await passDays(world.app, 11);
    expect((await subscriptionOf(world, en.userId)).status).toBe("EXPIRED");
    await passDays(world.app, 3);
    expect(await kindsOf(world, en.userId)).toEqual([
      "trial_started",
      "subscription_canceled",
      "subscription_canceled",
      "subscription_ended",
    ]);
  });

  test("removing the card: card_removed now, subscription_ended once when the period is over", async () => {
    const world = await makeTestApp();
    const ru = await customer(world, "card-remover@example.com", "ru", 3);
    await payTrial(world, ru);
    expect((await apiOf(world.app).profile.removeCard.post(identityOf(ru), sessionOf(ru))).status).toBe(200);
    const running = await subscriptionOf(world, ru.userId);
    expect(await onlyMail(world, ru.userId, "card_removed")).toMatchObject({
      language: "ru",
      data: { lastFour: "4242", accessUntil: running.end_date },
    });
    await passDays(world.app, 2);
    expect(await kindsOf(world, ru.userId)).toEqual(["trial_started", "card_removed"]);
    await passDays(world.app, 2);
    await runBilling(world.app);
    expect((await subscriptionOf(world, ru.userId)).status).toBe("EXPIRED");
    expect((await onlyMail(world, ru.userId, "subscription_ended")).data).toEqual({
      endedAt: running.end_date,
    });
    expect(await kindsOf(world, ru.userId)).toEqual(["trial_started", "card_removed", "subscription_ended"]);
  });

  test("a running subscription with no card on file ends at its renewal, told once", async () => {
    const world = await makeTestApp();
    const made = await fixture(world.app, {
      email: "no-card-on-file@example.com",
      status: "ACTIVE",
      language: "kk",
    });
    const before = await subscriptionOf(world, made.userId);
    await passDays(world.app, 26);
    await runBilling(world.app);
    expect((await subscriptionOf(world, made.userId)).status).toBe("EXPIRED");
    expect(await kindsOf(world, made.userId)).toEqual(["subscription_ended"]);
    expect(await onlyMail(world, made.userId, "subscription_ended")).toMatchObject({
      language: "kk",
      data: { endedAt: before.end_date },
    });
  });
});

describe("refunds", () => {
  /** A customer whose current period holds a renewal and an extra device. */
  async function customerWithPeriod(world: TestApp, email: string, language: Language) {
    const who = await customer(world, email, language);
    await payTrial(world, who);
    await passDays(world.app, 1.5);
    expect((await apiOf(world.app).profile.addDevice.post(identityOf(who), sessionOf(who))).status).toBe(200);
    return who;
  }

  test("an operator refund: one refund_made with the total and the count, and no subscription_ended", async () => {
    const world = await makeTestApp();
    const staff = await staffHeaders(world.app, world.context);
    const zh = await customerWithPeriod(world, "refunded@example.com", "zh");
    const answer = await panelRefund(world.app, await staff.admin(), { email: zh.email, uid: zh.uid });
    expect(answer.Success).toBe(true);
    const refunded = (await paymentsOf(world, zh.userId)).filter((payment) => payment.status === "refunded");
    expect(refunded.map((payment) => payment.kind)).toEqual(["renewal", "device"]);
    const total = refunded.reduce((sum, payment) => sum + payment.refunded_amount, 0);
    expect(total).toBe(answer.total * 100);
    const mail = await onlyMail(world, zh.userId, "refund_made");
    expect(mail).toMatchObject({
      language: "zh",
      data: { refund: { amount: total, currency: "RUB" }, payments: 2 },
    });
    expect(mail.event_key).toMatch(/^refund_made:panel:/);
    expect((await subscriptionOf(world, zh.userId)).status).toBe("EXPIRED");
    expect(await kindsOf(world, zh.userId)).not.toContain("subscription_ended");
  });

  test("a refund whose gateway call fails queues nothing; one that fails part way tells what did go back", async () => {
    const world = await makeTestApp();
    const staff = await staffHeaders(world.app, world.context);
    const en = await customerWithPeriod(world, "refund-fails@example.com", "en");
    const gateway = world.context.payments.gateway;
    const realRefund = gateway.refund;
    const identity = { email: en.email, uid: en.uid };
    try {
      gateway.refund = async () => ({ Success: false, Message: "Bank is offline" });
      expect((await panelRefund(world.app, await staff.admin(), identity)).Success).toBe(false);
      expect(await kindsOf(world, en.userId)).not.toContain("refund_made");

      let calls = 0;
      gateway.refund = async (transactionId, amount, receipt) =>
        ++calls === 2
          ? { Success: false, Message: "Bank is offline" }
          : realRefund(transactionId, amount, receipt);
      const partial = await panelRefund(world.app, await staff.admin(), identity);
      expect(partial.payments).toHaveLength(1);
    } finally {
      gateway.refund = realRefund;
    }
    const device = (await paymentsOf(world, en.userId)).find(
      (payment) => payment.kind === "device",
    ) as Payment;
    expect((await onlyMail(world, en.userId, "refund_made")).data).toMatchObject({
      refund: { amount: device.amount, currency: "RUB" },
      payments: 1,
    });
    const rest = await panelRefund(world.app, await staff.admin(), identity);
    expect(rest.Success).toBe(true);
    const told = (await mailsOf(world, en.userId)).filter((mail) => mail.kind === "refund_made");
    expect(told.map((mail) => mail.data.payments)).toEqual([1, 1]);
    expect(told[1]?.data.refund).toEqual({ amount: rest.total * 100, currency: "RUB" });
  });

  test("a refund made at the gateway: told once with the amount that went back, however often it is delivered", async () => {
    const world = await makeTestApp();
    const kk = await customerWithPeriod(world, "gateway-refund@example.com", "kk");
    const renewal = (await paymentsOf(world, kk.userId)).find(
      (payment) => payment.kind === "renewal",
    ) as Payment;
    expect(await refundNotification(world, renewal, 77_000_001, 30_000)).toBe(0);
    expect(await refundNotification(world, renewal, 77_000_001, 30_000)).toBe(0);
    expect(
      (await paymentsOf(world, kk.userId)).find((payment) => payment.id === renewal.id)?.refunded_amount,
    ).toBe(30_000);
    const mail = await onlyMail(world, kk.userId, "refund_made");
    expect(mail).toMatchObject({
      language: "kk",
      event_key: "refund_made:gateway:77000001",
      data: { refund: { amount: 30_000, currency: "KZT" }, payments: 1 },
    });
    // The rest, and more than the rest: only what the payment still held went back.
    expect(await refundNotification(world, renewal, 77_000_002, renewal.amount)).toBe(0);
    const told = (await mailsOf(world, kk.userId)).filter((entry) => entry.kind === "refund_made");
    expect(told.map((entry) => (entry.data.refund as { amount: number }).amount)).toEqual([
      30_000,
      renewal.amount - 30_000,
    ]);
    expect((await subscriptionOf(world, kk.userId)).status).toBe("EXPIRED");
    expect(await kindsOf(world, kk.userId)).not.toContain("subscription_ended");
  });
});
