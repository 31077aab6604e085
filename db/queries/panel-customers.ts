import type { PaymentMethod, PaymentProvider } from "../../core/payment-methods";
import type { Database } from "../database";
import { statement } from "../database";

/** The panel's reading of customers (bff/modules/panel/users.ts): search, receipts, invitees, logs. */

export type CustomerSearchRow = {
  id: number;
  email: string;
  deleted_at: number | null;
  status: string | null;
};

export type ReceiptRow = {
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
  /** A refund the provider took and has not done yet (migration 0031). */
  refund_in_progress: 0 | 1;
  /** Who took the payment and how: support looks it up there, and a refund goes back there. */
  provider: PaymentProvider;
  method: PaymentMethod;
};

export type InviteeRow = {
  invitee_id: number;
  email: string;
  created_at: number;
  start_date: number | null;
  end_date: number | null;
  status: string | null;
};

export type ConnectionLogRow = {
  id: number;
  email: string;
  device_name: string | null;
  platform: string | null;
  server_name: string | null;
  connected_at: number;
  user_ip: string | null;
  success: number;
};

/**
 * A customer's status is their newest subscription's, except that signing in again after
 * one ended opens a fresh, never-paid row: that customer is still one whose subscription
 * expired, not one who never had any, so the newest row that was ever paid speaks for them.
 */
const searchSelect = `SELECT u.id, u.email, u.deleted_at,
  (SELECT s.status FROM subscriptions s WHERE s.user_id = u.id
     ORDER BY CASE WHEN s.status = 'NOT_ACTIVE' THEN 1 ELSE 0 END, s.id DESC LIMIT 1) AS status FROM users u`;

const countOf = async (rows: Promise<{ count: number } | undefined>) => (await rows)?.count ?? 0;

export const customerSearch = {
  /** SQLite: how many e-mails the FTS5 trigram index matches (`match`: one quoted phrase). */
  trigramCount: (db: Database, match: string) =>
    countOf(
      statement<{ count: number }, [string]>(
        db,
        "SELECT COUNT(*) AS count FROM users_email_search WHERE users_email_search MATCH ?",
      ).get(match),
    ),

  /** SQLite: a page of the matching users' ids; the index walks its matches in rowid order and stops after the page. */
  trigramIds: async (db: Database, match: string, limit: number, offset: number) =>
    (
      await statement<{ rowid: number }, [string, number, number]>(
        db,
        "SELECT rowid FROM users_email_search WHERE users_email_search MATCH ? ORDER BY rowid LIMIT ? OFFSET ?",
      ).all(match, limit, offset)
    ).map((row) => row.rowid),

  /** The found customers by id (integers from the index, written into the text). */
  byIds: (db: Database, ids: number[]) =>
    statement<CustomerSearchRow, []>(
      db,
      `${searchSelect} WHERE u.id IN (${ids.join(",")}) ORDER BY u.id`,
    ).all(),

  /** lower() on both sides: PostgreSQL's LIKE minds the letter case (SQLite's does not). */
  likeCount: (db: Database, like: string) =>
    countOf(
      statement<{ count: number }, [string]>(
        db,
        "SELECT COUNT(*) AS count FROM users WHERE lower(email) LIKE lower(?) ESCAPE '\\'",
      ).get(like),
    ),

  likePage: (db: Database, like: string, limit: number, offset: number) =>
    statement<CustomerSearchRow, [string, number, number]>(
      db,
      `${searchSelect} WHERE lower(u.email) LIKE lower(?) ESCAPE '\\' ORDER BY u.id LIMIT ? OFFSET ?`,
    ).all(like, limit, offset),
};

export const customerCard = {
  /** The newest subscription that was ever paid for (not a fresh, unpaid order). */
  latestPaidSubscriptionId: (db: Database, userId: number) =>
    statement<{ id: number }, [number]>(
      db,
      "SELECT id FROM subscriptions WHERE user_id = ? AND status <> 'NOT_ACTIVE' ORDER BY id DESC LIMIT 1",
    ).get(userId),

  hasActivatedPromo: async (db: Database, userId: number) =>
    (await statement<{ found: number }, [number]>(
      db,
      "SELECT 1 AS found FROM promo_activations WHERE user_id = ? LIMIT 1",
    ).get(userId)) !== undefined,

  receiptCount: (db: Database, userId: number) =>
    countOf(
      statement<{ count: number }, [number]>(
        db,
        "SELECT COUNT(*) AS count FROM payments WHERE user_id = ? AND status <> 'pending'",
      ).get(userId),
    ),

  receipts: (db: Database, userId: number, limit: number, offset: number) =>
    statement<ReceiptRow, [number, number, number]>(
      db,
      `SELECT p.created_at, u.email, p.account_id, p.amount, p.currency, p.description, p.ip_address, p.status,
       p.transaction_id, p.subscription_id, p.kind, p.refund_in_progress, p.provider, p.method
     FROM payments p LEFT JOIN users u ON u.id = p.user_id
     WHERE p.user_id = ? AND p.status <> 'pending' ORDER BY p.created_at DESC, p.id DESC LIMIT ? OFFSET ?`,
    ).all(userId, limit, offset),

  inviteeCount: (db: Database, inviterId: number) =>
    countOf(
      statement<{ count: number }, [number]>(
        db,
        "SELECT COUNT(*) AS count FROM invitations WHERE inviter_id = ?",
      ).get(inviterId),
    ),

  /** Each invitee with their newest subscription's dates and status. */
  invitees: (db: Database, inviterId: number, limit: number, offset: number) =>
    statement<InviteeRow, [number, number, number]>(
      db,
      `SELECT i.invitee_id, u.email, i.created_at, s.start_date, s.end_date, s.status
     FROM invitations i JOIN users u ON u.id = i.invitee_id
     LEFT JOIN subscriptions s ON s.id = (SELECT MAX(id) FROM subscriptions WHERE user_id = i.invitee_id)
     WHERE i.inviter_id = ? ORDER BY i.created_at DESC, i.id DESC LIMIT ? OFFSET ?`,
    ).all(inviterId, limit, offset),

  /** The newest 500 connections. */
  connectionLogs: (db: Database, userId: number) =>
    statement<ConnectionLogRow, [number]>(
      db,
      `SELECT l.id, u.email, d.device_name, d.platform, l.server_name, l.connected_at, l.user_ip, l.success
     FROM connection_logs l JOIN users u ON u.id = l.user_id LEFT JOIN devices d ON d.id = l.device_id
     WHERE l.user_id = ? ORDER BY l.connected_at DESC, l.id DESC LIMIT 500`,
    ).all(userId),
};
