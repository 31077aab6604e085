import type { Database } from "../database";
import { statement } from "../database";
import { isAmong } from "../dialect";

export type PromoRow = {
  id: number;
  promo_code: string;
  promo_type: string;
  is_available: 0 | 1;
  discount_percent: number;
  expiration_date: string;
  created_at: number;
};

const availableWhere = "is_available = 1 AND expiration_date >= ? AND promo_code LIKE ? ESCAPE '\\'";

export const promos = {
  /** An available code whose last day (YYYY-MM-DD) is today or later. */
  /** The last day (YYYY-MM-DD) a promo discounts renewals. */
  expirationOf: async (db: Database, id: number) =>
    (
      await statement<{ expiration_date: string }, [number]>(
        db,
        "SELECT expiration_date FROM promos WHERE id = ?",
      ).get(id)
    )?.expiration_date,

  /** The last day of each of these promos, by id (expirationOf for a batch). */
  expirationsOf: async (db: Database, ids: readonly number[]) =>
    new Map(
      (
        await statement<{ id: number; expiration_date: string }, [string]>(
          db,
          `SELECT id, expiration_date FROM promos WHERE ${isAmong(db, "id")}`,
        ).all(JSON.stringify(ids))
      ).map((row) => [row.id, row.expiration_date]),
    ),

  usable: (db: Database, code: string, today: string) =>
    statement<PromoRow, [string, string]>(
      db,
      "SELECT * FROM promos WHERE promo_code = ? AND is_available = 1 AND expiration_date >= ?",
    ).get(code.toUpperCase(), today),

  activate: (db: Database, promoId: number, userId: number, now: number) =>
    statement(
      db,
      "INSERT INTO promo_activations (promo_id, user_id, activated_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
    ).run(promoId, userId, now),

  /** An operator's new code; 0 changes when a code of that name exists already. */
  insert: (
    db: Database,
    promo: {
      code: string;
      type: string;
      isAvailable: boolean;
      discountPercent: number;
      expirationDate: string;
    },
    createdBy: number,
    now: number,
  ) =>
    statement(
      db,
      `INSERT INTO promos (promo_code, promo_type, is_available, discount_percent, expiration_date, created_by, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ).run(
      promo.code,
      promo.type,
      promo.isAvailable ? 1 : 0,
      promo.discountPercent,
      promo.expirationDate,
      createdBy,
      now,
    ),

  /** How many available codes last to `today` or later and match `codeLike` (LIKE, backslash escapes). */
  availableCount: async (db: Database, today: string, codeLike: string) =>
    (
      await statement<{ count: number }, [string, string]>(
        db,
        `SELECT COUNT(*) AS count FROM promos WHERE ${availableWhere}`,
      ).get(today, codeLike)
    )?.count ?? 0,

  /** A page of those codes, newest first. */
  available: (db: Database, today: string, codeLike: string, limit: number, offset: number) =>
    statement<PromoRow, [string, string, number, number]>(
      db,
      `SELECT * FROM promos WHERE ${availableWhere} ORDER BY id DESC LIMIT ? OFFSET ?`,
    ).all(today, codeLike, limit, offset),
};
