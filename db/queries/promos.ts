import type { Database } from "../database";
import { statement } from "../database";

export type PromoRow = {
  id: number;
  promo_code: string;
  promo_type: string;
  is_available: 0 | 1;
  discount_percent: number;
  expiration_date: string;
  created_at: number;
};

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
};
