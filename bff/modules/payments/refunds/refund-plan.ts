import type { Currency } from "../../../../core/money";
import type { PaymentMethod, PaymentProvider } from "../../../../core/payment-methods";
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
  /** The provider that took the payment: its refund goes back there (DESIGN §6). */
  provider: PaymentProvider;
  /** How it was paid: the money goes back the same way (the customer's mail says which). */
  method: PaymentMethod;
};

export type RefundPlan = {
  user: UserRow;
  subscription: SubscriptionRow | undefined;
  /** In the order they go to the gateway: the charge whose refund ends access comes last. */
  lines: RefundLine[];
  endsAccess: boolean;
};

/**
 * Why nothing was refunded: its code and the facts it names (the answer carries both, and
 * `Message` words them in the operator's language, refund-words.ts).
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

export type Outcome<Value> = { ok: true; value: Value } | { ok: false; reason: RefundRefusal };

const refuse = (
  code: RefundRefusalCode,
  values: Record<string, string> = {},
): { ok: false; reason: RefundRefusal } => ({ ok: false, reason: { code, values } });
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
  if (!wanted) return refuse("uidMissing");
  const candidates = await refunds.usersByUid(database, wanted);
  if (candidates.length === 0) return refuse("uidUnknown", { uid: wanted });
  const normalized = email.trim().toLowerCase();
  const matching = candidates.filter((user) => user.email.trim().toLowerCase() === normalized);
  const [account] = matching;
  if (account && matching.length === 1) return { ok: true, value: account };
  if (matching.length > 1) return refuse("uidAmbiguous", { uid: wanted });
  const owners = candidates.map((user) => user.email).join(", ");
  return refuse("uidOtherAccount", { uid: wanted, owners, email: email.trim() });
}

function lineOf(row: ClaimablePaymentRow): RefundLine {
  return {
    paymentId: row.id,
    transactionId: row.transaction_id ?? "",
    amount: remainingOf(row),
    currency: row.currency,
    kind: row.kind,
    createdAt: row.created_at,
    provider: row.provider,
    method: row.method,
  };
}

function busyLine(rows: ClaimablePaymentRow[], now: number): ClaimablePaymentRow | undefined {
  return rows.find((row) => row.refund_claim !== null && (row.refund_claimed_at ?? 0) >= now - staleClaimMs);
}

function refuseBusy(row: ClaimablePaymentRow) {
  const retryAt = new Date((row.refund_claimed_at ?? 0) + staleClaimMs).toISOString();
  return refuse("busy", { transactionId: row.transaction_id ?? "", retryAt });
}

/** Every completed, unrefunded payment of the current period: the charge that opened it and the extra devices bought in it. */
async function currentPeriod(database: Database, user: UserRow, now: number): Promise<Outcome<RefundPlan>> {
  const subscription = await subscriptions.current(database, user.id);
  if (!subscription || !hasAccess(subscription, now)) {
    return refuse("notRunning", { status: subscription?.status ?? "NOT_ACTIVE" });
  }
  const periodCharge = await refunds.periodCharge(database, subscription.id);
  if (!periodCharge) return refuse("noPeriodCharge");
  const rows = [
    ...(await refunds.deviceChargesAfter(database, subscription.id, periodCharge.id)),
    periodCharge,
  ];
  const refundable = rows.filter(isRefundable);
  if (refundable.length === 0) return refuse("nothingLeft");
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
    if (!row || row.user_id !== user.id) return refuse("notTheirs", { transactionId, email: user.email });
    if (row.status === "refunded" || (row.status === "completed" && remainingOf(row) <= 0 && row.amount > 0))
      return refuse("alreadyRefunded", { transactionId });
    if (row.status !== "completed") return refuse("notCompleted", { transactionId, status: row.status });
    if (row.amount === 0) return refuse("costNothing", { transactionId });
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
