import type { Currency } from "../../../../core/money";
import type { Database } from "../../../../db/database";
import type { PaymentKind } from "../../../../db/queries/payments";
import { type ClaimablePaymentRow, refunds } from "../../../../db/queries/refunds";
import { hasAccess, type SubscriptionRow, subscriptions } from "../../../../db/queries/subscriptions";
import type { UserRow } from "../../../../db/queries/users";

/**
 * A claim older than this belongs to a refund that died (a crash, a gateway that never
 * answered within its 10 s timeout per call): it no longer blocks. Should the gateway
 * have refunded it after all, its Refund notification records that, and a second
 * request for the same money is refused by the gateway, which never refunds more than
 * was paid.
 */
export const staleClaimMs = 10 * 60 * 1000;

export type RefundLine = {
  paymentId: number;
  transactionId: string;
  /** What is left to refund, in minor units. */
  amount: number;
  currency: Currency;
  kind: PaymentKind;
  createdAt: number;
};

export type RefundPlan = {
  user: UserRow;
  subscription: SubscriptionRow | undefined;
  /** In the order they go to the gateway: the charge whose refund ends access comes last. */
  lines: RefundLine[];
  endsAccess: boolean;
};

/**
 * Why nothing was refunded, for the panel to say in the operator's language (the English
 * `Message` stays for API callers, as the spec reads it). Values are the facts it names.
 */
export type RefundRefusal = { code: RefundRefusalCode; values: Record<string, string> };
export type RefundRefusalCode =
  | "uidMissing"
  | "uidUnknown"
  | "uidAmbiguous"
  | "uidOtherAccount"
  | "notRunning"
  | "noPeriodCharge"
  | "nothingLeft"
  | "busy"
  | "notTheirs"
  | "alreadyRefunded"
  | "notCompleted"
  | "costNothing";

export type Outcome<Value> =
  | { ok: true; value: Value }
  | { ok: false; message: string; reason: RefundRefusal };

const refuse = (
  message: string,
  code: RefundRefusalCode,
  values: Record<string, string> = {},
): { ok: false; message: string; reason: RefundRefusal } => ({
  ok: false,
  message,
  reason: { code, values },
});
const remainingOf = (row: ClaimablePaymentRow) => row.amount - row.refunded_amount;
const isRefundable = (row: ClaimablePaymentRow) =>
  row.status === "completed" && row.transaction_id !== null && remainingOf(row) > 0;

/**
 * The account by the provider's uid alone: e-mails may repeat in another letter case
 * across providers, so the e-mail only confirms that the operator means this account.
 */
export async function findRefundAccount(
  database: Database,
  email: string,
  uid: string | undefined,
): Promise<Outcome<UserRow>> {
  const wanted = uid?.trim() ?? "";
  if (!wanted)
    return refuse(
      "A refund needs the customer's uid: open the customer from the search and try again.",
      "uidMissing",
    );
  const candidates = await refunds.usersByUid(database, wanted);
  if (candidates.length === 0)
    return refuse(`No customer has the uid "${wanted}"; nothing was refunded.`, "uidUnknown", {
      uid: wanted,
    });
  const normalized = email.trim().toLowerCase();
  const matching = candidates.filter((user) => user.email.trim().toLowerCase() === normalized);
  const [account] = matching;
  if (account && matching.length === 1) return { ok: true, value: account };
  if (matching.length > 1)
    return refuse(
      `Several accounts have the uid "${wanted}" and this e-mail; nothing was refunded.`,
      "uidAmbiguous",
      { uid: wanted },
    );
  const owners = candidates.map((user) => user.email).join(", ");
  return refuse(
    `The uid "${wanted}" belongs to ${owners}, not to ${email.trim()}; nothing was refunded. Open the customer from the search again.`,
    "uidOtherAccount",
    { uid: wanted, owners, email: email.trim() },
  );
}

function lineOf(row: ClaimablePaymentRow): RefundLine {
  return {
    paymentId: row.id,
    transactionId: row.transaction_id ?? "",
    amount: remainingOf(row),
    currency: row.currency,
    kind: row.kind,
    createdAt: row.created_at,
  };
}

function busyLine(rows: ClaimablePaymentRow[], now: number): ClaimablePaymentRow | undefined {
  return rows.find((row) => row.refund_claim !== null && (row.refund_claimed_at ?? 0) >= now - staleClaimMs);
}

function refuseBusy(row: ClaimablePaymentRow) {
  const retryAt = new Date((row.refund_claimed_at ?? 0) + staleClaimMs).toISOString();
  return refuse(
    `Payment ${row.transaction_id} is being refunded by another request right now; nothing was done. Look at the customer again, or try again after ${retryAt}.`,
    "busy",
    { transactionId: row.transaction_id ?? "", retryAt },
  );
}

/** Every completed, unrefunded payment of the current period: the charge that opened it and the extra devices bought in it. */
async function currentPeriod(database: Database, user: UserRow, now: number): Promise<Outcome<RefundPlan>> {
  const subscription = await subscriptions.current(database, user.id);
  if (!subscription || !hasAccess(subscription, now)) {
    const status = subscription?.status ?? "NOT_ACTIVE";
    return refuse(
      `Nothing to refund: the subscription is ${status} and no paid period is running. Nothing was changed.`,
      "notRunning",
      { status },
    );
  }
  const periodCharge = await refunds.periodCharge(database, subscription.id);
  if (!periodCharge)
    return refuse(
      "Nothing to refund: no payment opened the current period. Nothing was changed.",
      "noPeriodCharge",
    );
  const rows = [
    ...(await refunds.deviceChargesAfter(database, subscription.id, periodCharge.id)),
    periodCharge,
  ];
  const refundable = rows.filter(isRefundable);
  if (refundable.length === 0)
    return refuse(
      "Nothing to refund: the payments of the current period were already refunded or cost nothing. Nothing was changed.",
      "nothingLeft",
    );
  const busy = busyLine(refundable, now);
  if (busy) return refuseBusy(busy);
  return { ok: true, value: { user, subscription, lines: refundable.map(lineOf), endsAccess: true } };
}

/** Exactly the payments an administrator named by their gateway transaction ids; any problem refuses all. */
async function chosen(
  database: Database,
  user: UserRow,
  transactionIds: string[],
  now: number,
): Promise<Outcome<RefundPlan>> {
  const rows: ClaimablePaymentRow[] = [];
  for (const transactionId of new Set(transactionIds.map((id) => id.trim()))) {
    const row = await refunds.byTransaction(database, transactionId);
    if (!row || row.user_id !== user.id)
      return refuse(
        `Payment ${transactionId} is not a payment of ${user.email}; nothing was refunded.`,
        "notTheirs",
        {
          transactionId,
          email: user.email,
        },
      );
    if (row.status === "refunded" || (row.status === "completed" && remainingOf(row) <= 0 && row.amount > 0))
      return refuse(
        `Payment ${transactionId} was already refunded; nothing was refunded.`,
        "alreadyRefunded",
        {
          transactionId,
        },
      );
    if (row.status !== "completed")
      return refuse(
        `Payment ${transactionId} is ${row.status}, not completed; nothing was refunded.`,
        "notCompleted",
        {
          transactionId,
          status: row.status,
        },
      );
    if (row.amount === 0)
      return refuse(`Payment ${transactionId} cost nothing; nothing was refunded.`, "costNothing", {
        transactionId,
      });
    rows.push(row);
  }
  const busy = busyLine(rows, now);
  if (busy) return refuseBusy(busy);
  const subscription = await subscriptions.current(database, user.id);
  const periodCharge =
    subscription && hasAccess(subscription, now)
      ? await refunds.periodCharge(database, subscription.id)
      : undefined;
  // Refunding the charge that bought the running period takes the period with it (as a
  // gateway-side refund does); it goes last so access ends only once the rest went back.
  const endsAccess = rows.some((row) => row.id === periodCharge?.id);
  rows.sort((a, b) => Number(a.id === periodCharge?.id) - Number(b.id === periodCharge?.id) || b.id - a.id);
  return { ok: true, value: { user, subscription, lines: rows.map(lineOf), endsAccess } };
}

/** What a refund of this account would send to the gateway now; preview and refund both use it. */
export function planRefund(
  database: Database,
  user: UserRow,
  transactionIds: string[] | undefined,
  now: number,
): Promise<Outcome<RefundPlan>> {
  return transactionIds ? chosen(database, user, transactionIds, now) : currentPeriod(database, user, now);
}
