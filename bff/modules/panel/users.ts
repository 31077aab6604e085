import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";
import { hasAccess, subscriptions } from "../../../db/queries/subscriptions";
import { users } from "../../../db/queries/users";
import { AppError } from "../../platform/errors";
import { paged } from "../../platform/paging";
import { devices } from "../access/device-rows";
import { deviceView } from "../access/device-view";
import { cardView } from "../payments/card-removal";
import { inviteeDiscountPercent, referralInvitees } from "../referrals/referral-standing";
import { currentDiscount } from "../subscriptions/discount";
import { nextChargeAmount } from "../subscriptions/next-charge";
import { listPriceOfPeriod } from "../subscriptions/pricing";

const iso = (time: number | null | undefined) => (time ? new Date(time).toISOString() : null);

type SearchRow = { id: number; email: string; deleted_at: number | null; status: string | null };

/**
 * A customer's status is their newest subscription's, except that signing in again after
 * one ended opens a fresh, never-paid row: that customer is still one whose subscription
 * expired, not one who never had any, so the newest row that was ever paid speaks for them.
 */
const searchSelect = `SELECT u.id, u.email, u.deleted_at,
  (SELECT s.status FROM subscriptions s WHERE s.user_id = u.id
     ORDER BY CASE WHEN s.status = 'NOT_ACTIVE' THEN 1 ELSE 0 END, s.id DESC LIMIT 1) AS status FROM users u`;

/** The subscription the operator's card shows: the same rule as the search's status. */
async function shownSubscription(database: Database, userId: number) {
  const current = await subscriptions.current(database, userId);
  if (current?.status !== "NOT_ACTIVE") return current;
  const ended = await statement<{ id: number }, [number]>(
    database,
    "SELECT id FROM subscriptions WHERE user_id = ? AND status <> 'NOT_ACTIVE' ORDER BY id DESC LIMIT 1",
  ).get(userId);
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
  let rows: SearchRow[];
  let total: number;
  if (part.length >= 3 && database.engine === "sqlite") {
    const match = `"${part.replaceAll('"', '""')}"`;
    total =
      (
        await statement<{ count: number }, [string]>(
          database,
          "SELECT COUNT(*) AS count FROM users_email_search WHERE users_email_search MATCH ?",
        ).get(match)
      )?.count ?? 0;
    // The index walks its matches in rowid order and stops after the page.
    const ids = (
      await statement<{ rowid: number }, [string, number, number]>(
        database,
        "SELECT rowid FROM users_email_search WHERE users_email_search MATCH ? ORDER BY rowid LIMIT ? OFFSET ?",
      ).all(match, size, number * size)
    ).map((row) => row.rowid);
    rows =
      ids.length === 0
        ? []
        : await statement<SearchRow, []>(
            database,
            `${searchSelect} WHERE u.id IN (${ids.join(",")}) ORDER BY u.id`,
          ).all();
  } else {
    // lower() on both sides: PostgreSQL's LIKE minds the letter case (SQLite's does not).
    const like = `%${part.replace(/[%_\\]/g, (character) => `\\${character}`)}%`;
    total =
      (
        await statement<{ count: number }, [string]>(
          database,
          "SELECT COUNT(*) AS count FROM users WHERE lower(email) LIKE lower(?) ESCAPE '\\'",
        ).get(like)
      )?.count ?? 0;
    rows = await statement<SearchRow, [string, number, number]>(
      database,
      `${searchSelect} WHERE lower(u.email) LIKE lower(?) ESCAPE '\\' ORDER BY u.id LIMIT ? OFFSET ?`,
    ).all(like, size, number * size);
  }
  return paged(
    rows.map((row) => ({
      id: row.id,
      email: row.email,
      subscription: { status: row.status ?? "NOT_ACTIVE" },
      // A customer who deleted their own account: the e-mail shown is the placeholder.
      deletedAt: iso(row.deleted_at),
    })),
    number,
    size,
    total,
  );
}

/** The operator's view of a customer (spec §3 "User (operator view)"). */
export async function userDetails(database: Database, userId: number, now: number) {
  const user = await users.byId(database, userId);
  if (!user) throw new AppError("NOT_FOUND", `There is no customer with id ${userId}.`);
  const subscription = await shownSubscription(database, userId);
  const discount = await currentDiscount(database, userId, subscription, now);
  const promoActivated =
    (await statement<{ found: number }, [number]>(
      database,
      "SELECT 1 AS found FROM promo_activations WHERE user_id = ? LIMIT 1",
    ).get(userId)) !== undefined;
  const attached = await devices.attached(database, userId);
  return {
    id: user.id,
    email: user.email,
    uid: user.uid,
    deletedAt: iso(user.deleted_at),
    invitationCode: user.invitation_code,
    subscription: {
      status: subscription?.status ?? "NOT_ACTIVE",
      startDate: iso(subscription?.start_date),
      endDate: iso(subscription?.end_date),
      // What the next renewal charges (the renewal's own rule), not the bare tariff price.
      totalCost: subscription ? (await nextChargeAmount(database, subscription, now)) / 100 : 0,
      cost: subscription
        ? {
            months: subscription.tariff_months,
            tariffPrice: subscription.period_price / 100,
            extraDevicesPrice: (listPriceOfPeriod(subscription) - subscription.period_price) / 100,
            discountPercent: discount.totalPercent,
          }
        : null,
      deviceCount: subscription ? 1 + subscription.extra_devices : 0,
    },
    currency: user.currency,
    firstPayment: subscription ? subscription.first_payment / 100 : 0,
    firstPaymentIsActive: subscription?.first_payment_paid === 1,
    isPromoActivated: promoActivated,
    discount: discount.promoPercent / 100,
    referralDiscount: discount.referralPercent / 100,
    hasAccess: hasAccess(subscription, now),
    // Whether a card is saved, or when the customer removed it (DESIGN §13(b)).
    card: await cardView(database, userId),
    devices: attached.map(deviceView),
  };
}

type ReceiptRow = {
  created_at: number;
  email: string | null;
  account_id: string;
  amount: number;
  currency: string;
  description: string;
  ip_address: string | null;
  status: string;
  transaction_id: string | null;
  subscription_id: number | null;
  kind: "first" | "renewal" | "device";
};

/** Receipts are the payment records; the warranty is over 14 days after the payment. */
export async function receiptsOf(
  database: Database,
  userId: number,
  number: number,
  size: number,
  now: number,
) {
  const total =
    (
      await statement<{ count: number }, [number]>(
        database,
        "SELECT COUNT(*) AS count FROM payments WHERE user_id = ? AND status <> 'pending'",
      ).get(userId)
    )?.count ?? 0;
  const rows = await statement<ReceiptRow, [number, number, number]>(
    database,
    `SELECT p.created_at, u.email, p.account_id, p.amount, p.currency, p.description, p.ip_address, p.status,
       p.transaction_id, p.subscription_id, p.kind
     FROM payments p LEFT JOIN users u ON u.id = p.user_id
     WHERE p.user_id = ? AND p.status <> 'pending' ORDER BY p.created_at DESC, p.id DESC LIMIT ? OFFSET ?`,
  ).all(userId, size, number * size);
  return paged(
    rows.map((row) => ({
      dateTime: new Date(row.created_at).toISOString(),
      accountId: row.email ?? row.account_id,
      amount: row.amount / 100,
      currency: row.currency,
      description: row.description,
      // What was paid for, so the panel can say it in the operator's language.
      kind: row.kind,
      ipAddress: row.ip_address,
      status: row.status.toUpperCase(),
      transactionId: row.transaction_id,
      subscriptionId: row.subscription_id,
      isWarrantyOver: now - row.created_at > 14 * 24 * 60 * 60 * 1000,
    })),
    number,
    size,
    total,
  );
}

type InviteeRow = {
  invitee_id: number;
  email: string;
  created_at: number;
  start_date: number | null;
  end_date: number | null;
  status: string | null;
};

export async function inviteesOf(
  database: Database,
  inviterId: number,
  number: number,
  size: number,
  now: number,
) {
  const total =
    (
      await statement<{ count: number }, [number]>(
        database,
        "SELECT COUNT(*) AS count FROM invitations WHERE inviter_id = ?",
      ).get(inviterId)
    )?.count ?? 0;
  const rows = await statement<InviteeRow, [number, number, number]>(
    database,
    `SELECT i.invitee_id, u.email, i.created_at, s.start_date, s.end_date, s.status
     FROM invitations i JOIN users u ON u.id = i.invitee_id
     LEFT JOIN subscriptions s ON s.id = (SELECT MAX(id) FROM subscriptions WHERE user_id = i.invitee_id)
     WHERE i.inviter_id = ? ORDER BY i.created_at DESC, i.id DESC LIMIT ? OFFSET ?`,
  ).all(inviterId, size, number * size);
  // Whether each counts toward the inviter's discount, why, and how much it takes off the
  // inviter's own period (prorated per month, DESIGN §13), as the cabinet says it.
  const periodMonths = (await subscriptions.current(database, inviterId))?.tariff_months ?? 1;
  const standings = new Map(
    (await referralInvitees(database, inviterId)).map((item) => [item.inviteeId, item]),
  );
  return {
    invitations: paged(
      rows.map((row) => {
        const standing = standings.get(row.invitee_id);
        return {
          inviteeId: row.invitee_id,
          inviteeEmail: row.email,
          created: new Date(row.created_at).toISOString(),
          discountStartDate: iso(row.start_date),
          subscriptionEndDate: iso(row.end_date),
          hasSubscription:
            row.status === "ACTIVE" || (row.status === "CANCELED" && (row.end_date ?? 0) > now),
          countsForDiscount: standing?.reason === "counts",
          discountReason: standing?.reason ?? "not-paid-yet",
          discountPercent: standing ? inviteeDiscountPercent(standing, periodMonths) : 0,
        };
      }),
      number,
      size,
      total,
    ),
  };
}

export async function connectionLogsOf(database: Database, userId: number) {
  const rows = await statement<
    {
      id: number;
      email: string;
      device_name: string | null;
      platform: string | null;
      server_name: string | null;
      connected_at: number;
      user_ip: string | null;
      success: number;
    },
    [number]
  >(
    database,
    `SELECT l.id, u.email, d.device_name, d.platform, l.server_name, l.connected_at, l.user_ip, l.success
     FROM connection_logs l JOIN users u ON u.id = l.user_id LEFT JOIN devices d ON d.id = l.device_id
     WHERE l.user_id = ? ORDER BY l.connected_at DESC, l.id DESC LIMIT 500`,
  ).all(userId);
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    deviceName: row.device_name,
    platform: row.platform,
    serverName: row.server_name,
    connectionDate: new Date(row.connected_at).toISOString(),
    userIp: row.user_ip,
    success: row.success === 1,
  }));
}
