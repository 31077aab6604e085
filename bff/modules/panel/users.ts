import { isoTime } from "../../../core/date-time";
import { percentToFraction, toCurrencyUnits } from "../../../core/money";
import type { Database } from "../../../db/database";
import { devices } from "../../../db/queries/devices";
import { type CustomerSearchRow, customerCard, customerSearch } from "../../../db/queries/panel-customers";
import { hasAccess, paidExtraSlots, subscriptions } from "../../../db/queries/subscriptions";
import { users } from "../../../db/queries/users";
import { AppError } from "../../platform/errors";
import { paged } from "../../platform/paging";
import { deviceView } from "../access/devices/device-view";
import { cardView } from "../payments/card-view";
import { inviteeDiscountPercent, referralInvitees } from "../referrals/referral-standing";
import { currentDiscount } from "../subscriptions/discount";
import { listPriceOf, nextChargeAmount } from "../subscriptions/next-charge";

/** The subscription the operator's card shows: the same rule as the search's status. */
async function shownSubscription(database: Database, userId: number) {
  const current = await subscriptions.current(database, userId);
  if (current?.status !== "NOT_ACTIVE") return current;
  const ended = await customerCard.latestPaidSubscriptionId(database, userId);
  return (ended && (await subscriptions.byId(database, ended.id))) ?? current;
}

/**
 * Case-insensitive e-mail substring search. On SQLite, three characters or more go through
 * the FTS5 trigram index (fast at a million users); shorter parts cannot use trigrams and
 * scan. On PostgreSQL, a `pg_trgm` index on lower(email) serves the same LIKE for three
 * characters or more (DESIGN §15).
 */
export async function searchUsers(database: Database, emailPart: string, number: number, size: number) {
  // Control characters never get here (the input guard refuses them): SQLite's FTS5
  // parser would end a quoted phrase at a NUL ("unterminated string").
  const part = emailPart.trim();
  let rows: CustomerSearchRow[];
  let total: number;
  if (part.length >= 3 && database.engine === "sqlite") {
    const match = `"${part.replaceAll('"', '""')}"`;
    total = await customerSearch.trigramCount(database, match);
    const ids = await customerSearch.trigramIds(database, match, size, number * size);
    rows = ids.length === 0 ? [] : await customerSearch.byIds(database, ids);
  } else {
    const like = `%${part.replace(/[%_\\]/g, (character) => `\\${character}`)}%`;
    total = await customerSearch.likeCount(database, like);
    rows = await customerSearch.likePage(database, like, size, number * size);
  }
  return paged(
    rows.map((row) => ({
      id: row.id,
      email: row.email,
      subscription: { status: row.status ?? "NOT_ACTIVE" },
      // A customer who deleted their own account: the e-mail shown is the placeholder.
      deletedAt: isoTime(row.deleted_at),
    })),
    number,
    size,
    total,
  );
}

/** The operator's view of a customer (spec §3 "User (operator view)"). */
export async function userDetails(database: Database, userId: number, now: number) {
  const user = await users.byId(database, userId);
  if (!user) throw new AppError("customer_not_found", { id: userId });
  const subscription = await shownSubscription(database, userId);
  const discount = await currentDiscount(database, userId, subscription, now);
  const promoActivated = await customerCard.hasActivatedPromo(database, userId);
  const attached = await devices.attached(database, userId, now);
  return {
    id: user.id,
    email: user.email,
    uid: user.uid,
    deletedAt: isoTime(user.deleted_at),
    invitationCode: user.invitation_code,
    subscription: {
      status: subscription?.status ?? "NOT_ACTIVE",
      startDate: isoTime(subscription?.start_date),
      endDate: isoTime(subscription?.end_date),
      // What the next renewal charges (the renewal's own rule), not the bare tariff price.
      totalCost: subscription ? toCurrencyUnits(await nextChargeAmount(database, subscription, now)) : 0,
      cost: subscription
        ? {
            months: subscription.tariff_months,
            tariffPrice: toCurrencyUnits(subscription.period_price),
            extraDevicesPrice: toCurrencyUnits(listPriceOf(subscription) - subscription.period_price),
            discountPercent: discount.totalPercent,
          }
        : null,
      // The slots paid for now: extra ones whose own paid time ended are not counted.
      deviceCount: subscription ? 1 + paidExtraSlots(subscription, now) : 0,
    },
    currency: user.currency,
    firstPayment: subscription ? toCurrencyUnits(subscription.first_payment) : 0,
    firstPaymentIsActive: subscription?.first_payment_paid === 1,
    isPromoActivated: promoActivated,
    discount: percentToFraction(discount.promoPercent),
    referralDiscount: percentToFraction(discount.referralPercent),
    hasAccess: hasAccess(subscription, now),
    // Whether a card is saved, or when the customer removed it (DESIGN §13(b)).
    card: await cardView(database, userId),
    devices: attached.map(deviceView),
  };
}

/** Receipts are the payment records; the warranty is over 14 days after the payment. */
export async function receiptsOf(
  database: Database,
  userId: number,
  number: number,
  size: number,
  now: number,
) {
  const total = await customerCard.receiptCount(database, userId);
  const rows = await customerCard.receipts(database, userId, size, number * size);
  return paged(
    rows.map((row) => ({
      dateTime: isoTime(row.created_at),
      accountId: row.email ?? row.account_id,
      amount: toCurrencyUnits(row.amount),
      currency: row.currency,
      description: row.description,
      // What was paid for, so the panel can say it in the operator's language.
      kind: row.kind,
      ipAddress: row.ip_address,
      // A refund the provider took and has not done yet (an SBP payment's) says so until its notification.
      status: row.refund_in_progress === 1 ? "REFUND_IN_PROGRESS" : row.status.toUpperCase(),
      transactionId: row.transaction_id,
      subscriptionId: row.subscription_id,
      isWarrantyOver: now - row.created_at > 14 * 24 * 60 * 60 * 1000,
      // Where support finds the transaction id, and how the customer paid.
      provider: row.provider,
      method: row.method,
    })),
    number,
    size,
    total,
  );
}

export async function inviteesOf(
  database: Database,
  inviterId: number,
  number: number,
  size: number,
  now: number,
) {
  const total = await customerCard.inviteeCount(database, inviterId);
  const rows = await customerCard.invitees(database, inviterId, size, number * size);
  // Whether each counts toward the inviter's discount, why, and how much it takes off the
  // inviter's own period (prorated per month, DESIGN §13), as the cabinet says it.
  const periodMonths = (await subscriptions.current(database, inviterId))?.tariff_months ?? 1;
  const standings = new Map(
    (await referralInvitees(database, inviterId)).map((item) => [item.inviteeId, item]),
  );
  const invitations = paged(
    rows.map((row) => {
      const standing = standings.get(row.invitee_id);
      return {
        inviteeId: row.invitee_id,
        inviteeEmail: row.email,
        created: isoTime(row.created_at),
        discountStartDate: isoTime(row.start_date),
        subscriptionEndDate: isoTime(row.end_date),
        hasSubscription: row.status === "ACTIVE" || (row.status === "CANCELED" && (row.end_date ?? 0) > now),
        countsForDiscount: standing?.reason === "counts",
        discountReason: standing?.reason ?? "not-paid-yet",
        discountPercent: standing ? inviteeDiscountPercent(standing, periodMonths) : 0,
      };
    }),
    number,
    size,
    total,
  );
  // The spec names both `invitations.content[]` and `page.totalPages`: the page is given at
  // both places, so a reader of either finds it.
  return { invitations, page: invitations.page };
}

export async function connectionLogsOf(database: Database, userId: number) {
  const rows = await customerCard.connectionLogs(database, userId);
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    deviceName: row.device_name,
    platform: row.platform,
    serverName: row.server_name,
    connectionDate: isoTime(row.connected_at),
    userIp: row.user_ip,
    success: row.success === 1,
  }));
}
