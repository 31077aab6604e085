import type { Currency } from "../../core/money";
import type { PaymentMethod, PaymentProvider } from "../../core/payment-methods";
import type { Database } from "../database";
import { statement } from "../database";
import { isAmong, jsonRows, smallerOf } from "../dialect";
import type { SubscriptionRow } from "./subscriptions";

export type CardOnFile = {
  token: string | null;
  lastFour: string | null;
  /** From the gateway's notification when it says: first six and expiry ("MM/YY"). */
  firstSix?: string | null;
  expiry?: string | null;
  /** first six + last four + expiry (payments/orders/trial.ts `cardFingerprint`). */
  fingerprint?: string | null;
};

export type PaymentKind = "first" | "renewal" | "device";
export type PaymentStatus = "pending" | "completed" | "declined" | "refunded";

export type PaymentRow = {
  id: number;
  user_id: number | null;
  subscription_id: number | null;
  kind: PaymentKind;
  invoice_id: string;
  account_id: string;
  amount: number;
  currency: Currency;
  description: string;
  status: PaymentStatus;
  transaction_id: string | null;
  ip_address: string | null;
  period_index: number | null;
  attempt: number;
  tariff_months: 1 | 3 | 6 | 12 | null;
  trial_days: number | null;
  extra_devices: number | null;
  prepaid_token: string | null;
  bound_at: number | null;
  decline_reason_code: number | null;
  decline_reason: string | null;
  refunded_amount: number;
  refunded_at: number | null;
  card_token: string | null;
  card_last_four: string | null;
  is_trial: 0 | 1;
  card_first_six: string | null;
  card_exp_date: string | null;
  card_fingerprint: string | null;
  /** Why this 1-unit payment was not given its trial (payments/orders/trial.ts). */
  trial_refusal: "card" | "customer" | "account" | null;
  /** The e-mail an anonymous payer gave the gateway. */
  payer_email: string | null;
  /** The provider that took it (refunds and look-ups go there) and how it was paid. */
  provider: PaymentProvider;
  method: PaymentMethod;
  /** An SBP order's QR takes no payment after this. */
  qr_expires_at: number | null;
  /** The provider's id of the payment, once known (YooKassa names it while still pending). */
  provider_payment_id: string | null;
  created_at: number;
  updated_at: number;
};

export type NewPayment = {
  userId: number | null;
  subscriptionId: number | null;
  kind: PaymentKind;
  invoiceId: string;
  accountId: string;
  amount: number;
  currency: Currency;
  description: string;
  ipAddress?: string | null;
  periodIndex?: number | null;
  attempt?: number;
  tariffMonths?: number | null;
  trialDays?: number | null;
  extraDevices?: number | null;
  prepaidToken?: string | null;
  status?: PaymentStatus;
  /** A 1-unit first payment: the trial, given once per customer and card. */
  isTrial?: boolean;
  /** The provider that takes it and the method (CloudPayments and a card unless said). */
  provider?: PaymentProvider;
  method?: PaymentMethod;
};

/** A payment to complete, with what completes it (payments.completeMany). */
export type PaidPayment = {
  payment_id: number;
  transaction_id: string;
  card_token: string | null;
  card_last_four: string | null;
  card_first_six: string | null;
  card_exp_date: string | null;
  card_fingerprint: string | null;
};

/** A renewal attempt as a claim commits it (payments.insertRenewalAttempts). */
export type NewRenewalAttempt = {
  user_id: number;
  subscription_id: number;
  invoice_id: string;
  account_id: string;
  amount: number;
  currency: Currency;
  description: string;
  period_index: number;
  attempt: number;
  tariff_months: number;
  extra_devices: number;
  claimed_by: string | null;
  /** Where the subscription's saved method is held, and what it is: the charge goes there. */
  provider: PaymentProvider;
  method: PaymentMethod;
};

const renewalAttemptColumns = [
  ["user_id", "BIGINT"],
  ["subscription_id", "BIGINT"],
  ["invoice_id", "TEXT"],
  ["account_id", "TEXT"],
  ["amount", "BIGINT"],
  ["currency", "TEXT"],
  ["description", "TEXT"],
  ["period_index", "BIGINT"],
  ["attempt", "BIGINT"],
  ["tariff_months", "BIGINT"],
  ["extra_devices", "BIGINT"],
  ["claimed_by", "TEXT"],
  ["provider", "TEXT"],
  ["method", "TEXT"],
] as const;

export const payments = {
  byId: (db: Database, id: number) =>
    statement<PaymentRow, [number]>(db, "SELECT * FROM payments WHERE id = ?").get(id),

  byInvoice: (db: Database, invoiceId: string) =>
    statement<PaymentRow, [string]>(db, "SELECT * FROM payments WHERE invoice_id = ?").get(invoiceId),

  byPrepaidToken: (db: Database, token: string) =>
    statement<PaymentRow, [string]>(db, "SELECT * FROM payments WHERE prepaid_token = ?").get(token),

  async insert(db: Database, payment: NewPayment, now: number): Promise<PaymentRow> {
    const row = await statement<PaymentRow, (string | number | null)[]>(
      db,
      `INSERT INTO payments (user_id, subscription_id, kind, invoice_id, account_id, amount, currency, description,
         status, ip_address, period_index, attempt, tariff_months, trial_days, extra_devices, prepaid_token,
         is_trial, provider, method, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ).get(
      payment.userId,
      payment.subscriptionId,
      payment.kind,
      payment.invoiceId,
      payment.accountId,
      payment.amount,
      payment.currency,
      payment.description,
      payment.status ?? "pending",
      payment.ipAddress ?? null,
      payment.periodIndex ?? null,
      payment.attempt ?? 1,
      payment.tariffMonths ?? null,
      payment.trialDays ?? null,
      payment.extraDevices ?? null,
      payment.prepaidToken ?? null,
      payment.isTrial ? 1 : 0,
      payment.provider ?? "cloudpayments",
      payment.method ?? "card",
      now,
      now,
    );
    if (!row) throw new Error("payment insert returned nothing");
    return row;
  },

  /** Completes a pending or declined payment (a late Pay wins over an earlier Fail); never twice. */
  complete: (db: Database, id: number, transactionId: string, card: CardOnFile, now: number) =>
    statement(
      db,
      `UPDATE payments SET status = 'completed', transaction_id = ?, card_token = COALESCE(?, card_token),
         card_last_four = COALESCE(?, card_last_four), card_first_six = COALESCE(?, card_first_six),
         card_exp_date = COALESCE(?, card_exp_date), card_fingerprint = COALESCE(?, card_fingerprint),
         updated_at = ? WHERE id = ? AND status IN ('pending', 'declined')`,
    ).run(
      transactionId,
      card.token,
      card.lastFour,
      card.firstSix ?? null,
      card.expiry ?? null,
      card.fingerprint ?? null,
      now,
      id,
    ),

  /** Declines a pending payment; a completed one is never downgraded by a late Fail. */
  decline: (
    db: Database,
    id: number,
    transactionId: string | null,
    reasonCode: number | null,
    reason: string | null,
    now: number,
  ) =>
    statement(
      db,
      `UPDATE payments SET status = 'declined', transaction_id = COALESCE(?, transaction_id), decline_reason_code = ?,
         decline_reason = ?, updated_at = ? WHERE id = ? AND status = 'pending'`,
    ).run(transactionId, reasonCode, reason, now, id),

  bind: (db: Database, id: number, userId: number, subscriptionId: number, now: number) =>
    statement(
      db,
      "UPDATE payments SET user_id = ?, subscription_id = ?, bound_at = ?, updated_at = ? WHERE id = ? AND user_id IS NULL",
    ).run(userId, subscriptionId, now, now, id),

  /** A pending (unpaid) order may still change its plan; a paid one never does. */
  /** How a pending order is to be paid: by card, or by SBP with its QR's end. */
  setMethod: (db: Database, id: number, method: PaymentMethod, qrExpiresAt: number | null, now: number) =>
    statement(
      db,
      "UPDATE payments SET method = ?, qr_expires_at = ?, updated_at = ? WHERE id = ? AND status = 'pending'",
    ).run(method, qrExpiresAt, now, id),

  updatePendingPlan: (
    db: Database,
    id: number,
    plan: {
      tariffMonths: number;
      trialDays: number;
      amount: number;
      currency: Currency;
      description: string;
      isTrial: boolean;
    },
    now: number,
  ) =>
    statement(
      db,
      `UPDATE payments SET tariff_months = ?, trial_days = ?, amount = ?, currency = ?, description = ?, is_trial = ?,
         trial_refusal = NULL, updated_at = ? WHERE id = ? AND status = 'pending'`,
    ).run(
      plan.tariffMonths,
      plan.trialDays,
      plan.amount,
      plan.currency,
      plan.description,
      plan.isTrial ? 1 : 0,
      now,
      id,
    ),

  /**
   * Moves a pending order to the provider that will take it, with the provider's id of the
   * payment it opened and how it is paid: an order is re-opened through any provider until paid.
   */
  startedAt: (
    db: Database,
    id: number,
    started: {
      provider: PaymentProvider;
      method: PaymentMethod;
      providerPaymentId: string;
      qrExpiresAt: number | null;
    },
    now: number,
  ) =>
    statement(
      db,
      `UPDATE payments SET provider = ?, method = ?, provider_payment_id = ?, qr_expires_at = ?, updated_at = ?
       WHERE id = ? AND status = 'pending'`,
    ).run(started.provider, started.method, started.providerPaymentId, started.qrExpiresAt, now, id),

  /** The provider's id of a payment, once an answer or a notification said it. */
  setProviderPaymentId: (db: Database, id: number, providerPaymentId: string, now: number) =>
    statement(db, "UPDATE payments SET provider_payment_id = ?, updated_at = ? WHERE id = ?").run(
      providerPaymentId,
      now,
      id,
    ),

  setPayerEmail: (db: Database, id: number, email: string, now: number) =>
    statement(db, "UPDATE payments SET payer_email = ?, updated_at = ? WHERE id = ? AND user_id IS NULL").run(
      email,
      now,
      id,
    ),

  /**
   * Whether a charge of `kind` for the subscription is committed but not settled, created
   * at `since` or later (a device purchase cut short by a crash is not in flight for ever).
   */
  inFlight: async (db: Database, subscriptionId: number, kind: PaymentKind, since: number) =>
    (await statement<{ found: number }, [number, string, number]>(
      db,
      `SELECT 1 AS found FROM payments WHERE subscription_id = ? AND kind = ? AND status = 'pending'
         AND created_at >= CAST(? AS BIGINT) LIMIT 1`,
    ).get(subscriptionId, kind, since)) !== undefined,

  /** Whether a device slot of the subscription was bought (and paid) in a purchase begun after `after`. */
  slotBoughtAfter: async (db: Database, subscriptionId: number, after: number) =>
    (await statement<{ found: number }, [number, number]>(
      db,
      `SELECT 1 AS found FROM payments WHERE subscription_id = ? AND kind = 'device' AND status = 'completed'
         AND created_at > CAST(? AS BIGINT) LIMIT 1`,
    ).get(subscriptionId, after)) !== undefined,

  /**
   * Whether the subscription's newest renewal attempt was declined and none of its payments
   * was refunded: access that ended then ended on a failed payment, not by a refund.
   */
  endedOnDecline: async (db: Database, subscriptionId: number) => {
    const row = await statement<{ last_renewal: string | null; refunds: number | string }, [number, number]>(
      db,
      `SELECT (SELECT status FROM payments WHERE subscription_id = ? AND kind = 'renewal'
                 ORDER BY id DESC LIMIT 1) AS last_renewal,
              (SELECT COUNT(*) FROM payments WHERE subscription_id = ? AND refunded_amount > 0) AS refunds`,
    ).get(subscriptionId, subscriptionId);
    return row?.last_renewal === "declined" && Number(row.refunds) === 0;
  },

  /** How many renewal attempts the subscription's period has had, whatever their outcome. */
  renewalAttempts: async (db: Database, subscriptionId: number, periodIndex: number) =>
    (
      await statement<{ count: number }, [number, number]>(
        db,
        "SELECT COUNT(*) AS count FROM payments WHERE subscription_id = ? AND period_index = ? AND kind = 'renewal'",
      ).get(subscriptionId, periodIndex)
    )?.count ?? 0,

  /**
   * A claim's renewal attempts, committed in one statement under the pass's lease
   * (`claimedBy`; null for a free one, settled at once). Returned in no particular order.
   */
  insertRenewalAttempts: (db: Database, attempts: readonly NewRenewalAttempt[], now: number) =>
    attempts.length === 0
      ? Promise.resolve([])
      : statement<PaymentRow, [number, number, string]>(
          db,
          `INSERT INTO payments (user_id, subscription_id, kind, invoice_id, account_id, amount, currency, description,
             status, period_index, attempt, tariff_months, extra_devices, claimed_by, provider, method,
             created_at, updated_at)
           SELECT a.user_id, a.subscription_id, 'renewal', a.invoice_id, a.account_id, a.amount, a.currency,
             a.description, 'pending', a.period_index, a.attempt, a.tariff_months, a.extra_devices, a.claimed_by,
             a.provider, a.method, ?, ?
           FROM ${jsonRows(db, "a", renewalAttemptColumns)}
           RETURNING *`,
        ).all(now, now, JSON.stringify(attempts)),

  /** The status of each of these payments, by id: what settling a batch of answers reads first. */
  statusesOf: async (db: Database, ids: readonly number[]) =>
    new Map(
      (
        await statement<{ id: number; status: PaymentStatus }, [string]>(
          db,
          `SELECT id, status FROM payments WHERE ${isAmong(db, "id")}`,
        ).all(JSON.stringify(ids))
      ).map((row) => [row.id, row.status]),
    ),

  /** Of these payments, the ones a Pay may still complete, each with its subscription as it stands. */
  completableWithSubscription: (db: Database, ids: readonly number[]) =>
    statement<SubscriptionRow & { payment_id: number }, [string]>(
      db,
      `SELECT p.id AS payment_id, s.* FROM payments p JOIN subscriptions s ON s.id = p.subscription_id
       WHERE ${isAmong(db, "p.id")} AND p.status IN ('pending', 'declined')`,
    ).all(JSON.stringify(ids)),

  /**
   * `complete` for many payments in one statement, each with its transaction and the card
   * the gateway named (none in a charge's answer: the card columns then stay as they are);
   * returns the ids this statement completed, never one completed before.
   */
  completeMany: async (db: Database, paid: readonly PaidPayment[], now: number) =>
    (
      await statement<{ id: number }, [number, string]>(
        db,
        `UPDATE payments SET status = 'completed', transaction_id = t.transaction_id,
           card_token = COALESCE(t.card_token, payments.card_token),
           card_last_four = COALESCE(t.card_last_four, payments.card_last_four),
           card_first_six = COALESCE(t.card_first_six, payments.card_first_six),
           card_exp_date = COALESCE(t.card_exp_date, payments.card_exp_date),
           card_fingerprint = COALESCE(t.card_fingerprint, payments.card_fingerprint), updated_at = ?
         FROM ${jsonRows(db, "t", [
           ["payment_id", "BIGINT"],
           ["transaction_id", "TEXT"],
           ["card_token", "TEXT"],
           ["card_last_four", "TEXT"],
           ["card_first_six", "TEXT"],
           ["card_exp_date", "TEXT"],
           ["card_fingerprint", "TEXT"],
         ])}
         WHERE payments.id = t.payment_id AND payments.status IN ('pending', 'declined') RETURNING id`,
      ).all(now, JSON.stringify(paid))
    ).map((row) => row.id),

  byTransaction: (db: Database, transactionId: string) =>
    statement<PaymentRow, [string]>(db, "SELECT * FROM payments WHERE transaction_id = ?").get(transactionId),

  /**
   * Adds a refund to a completed payment, never beyond what was paid; the payment counts
   * as refunded once all of it has gone back.
   */
  addRefund: (db: Database, id: number, amount: number, now: number) =>
    statement<{ refunded_amount: number; status: PaymentStatus }, [number, number, number, number, number]>(
      db,
      `UPDATE payments SET refunded_amount = ${smallerOf(db)}(amount, refunded_amount + ?), refunded_at = ?, updated_at = ?,
         status = CASE WHEN ${smallerOf(db)}(amount, refunded_amount + ?) >= amount THEN 'refunded' ELSE status END
       WHERE id = ? AND status IN ('completed', 'refunded') RETURNING refunded_amount, status`,
    ).get(amount, now, now, amount, id),

  /** The payment that bought a subscription's current period: its newest paid first or renewal charge. */
  currentPeriodPayment: async (db: Database, subscriptionId: number) =>
    (
      await statement<{ id: number }, [number]>(
        db,
        `SELECT id FROM payments WHERE subscription_id = ? AND kind IN ('first', 'renewal')
         AND status IN ('completed', 'refunded') ORDER BY id DESC LIMIT 1`,
      ).get(subscriptionId)
    )?.id,

  markRefunded: (db: Database, id: number, amount: number, now: number) =>
    statement(
      db,
      "UPDATE payments SET status = 'refunded', refunded_amount = ?, refunded_at = ?, updated_at = ? WHERE id = ? AND status = 'completed'",
    ).run(amount, now, now, id),

  /** Whether the customer ever paid anything, refunded payments included. */
  hasPaid: async (db: Database, userId: number) =>
    (await statement<{ found: number }, [number]>(
      db,
      "SELECT 1 AS found FROM payments WHERE user_id = ? AND status IN ('completed', 'refunded') LIMIT 1",
    ).get(userId)) !== undefined,
};

export const webhookEvents = {
  /**
   * `record` for many notifications in one statement: returns the keys
   * (`kind:transactionId`) of those that were new.
   */
  recordMany: async (
    db: Database,
    events: readonly { kind: string; transaction_id: string; invoice_id: string }[],
    now: number,
  ) =>
    new Set(
      (
        await statement<{ kind: string; transaction_id: string }, [number, string]>(
          db,
          `INSERT INTO webhook_events (kind, transaction_id, invoice_id, received_at)
           SELECT e.kind, e.transaction_id, e.invoice_id, ? FROM ${jsonRows(db, "e", [
             ["kind", "TEXT"],
             ["transaction_id", "TEXT"],
             ["invoice_id", "TEXT"],
           ])} WHERE true
           ON CONFLICT DO NOTHING RETURNING kind, transaction_id`,
        ).all(now, JSON.stringify(events))
      ).map((row) => `${row.kind}:${row.transaction_id}`),
    ),

  /** Whether this notification was applied already (its effect was recorded with it). */
  has: async (db: Database, kind: string, transactionId: string) =>
    (await statement<{ found: number }, [string, string]>(
      db,
      "SELECT 1 AS found FROM webhook_events WHERE kind = ? AND transaction_id = ?",
    ).get(kind, transactionId)) !== undefined,

  /** True when this notification is new; the caller applies its effect in the same transaction. */
  record: async (db: Database, kind: string, transactionId: string, invoiceId: string, now: number) =>
    (
      await statement(
        db,
        `INSERT INTO webhook_events (kind, transaction_id, invoice_id, received_at) VALUES (?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
      ).run(kind, transactionId, invoiceId, now)
    ).changes === 1,
};
