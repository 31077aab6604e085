import type { Database } from "../database";
import { statement } from "../database";
import type { SavedMethodRemover } from "./subscriptions";

/**
 * The saved card of a customer (DESIGN §13(b)), or an SBP autopay binding. A token lives on
 * the subscription it renews and, copied from the gateway's answer, on the payment rows it
 * paid; removing it clears it from all of them. The customer removes it, or the payer's
 * bank ends an SBP binding (`by`).
 */
export const savedCards = {
  /**
   * What the cabinet and the panel show: the newest subscription that holds a token (an
   * expired one's card stays removable too), and the last removal.
   */
  async stateOf(db: Database, userId: number) {
    const row = await statement<
      {
        is_saved: number;
        last_four: string | null;
        removed_at: number | null;
        removed_by: SavedMethodRemover | null;
      },
      [number, number, number, number]
    >(
      db,
      `SELECT EXISTS (SELECT 1 FROM subscriptions WHERE user_id = ? AND card_token IS NOT NULL) AS is_saved,
         (SELECT card_last_four FROM subscriptions WHERE id =
           (SELECT MAX(id) FROM subscriptions WHERE user_id = ? AND card_token IS NOT NULL)) AS last_four,
         (SELECT MAX(card_removed_at) FROM subscriptions WHERE user_id = ?) AS removed_at,
         (SELECT card_removed_by FROM subscriptions WHERE user_id = ? AND card_removed_at IS NOT NULL
           ORDER BY card_removed_at DESC, id DESC LIMIT 1) AS removed_by`,
    ).get(userId, userId, userId, userId);
    const isSaved = row?.is_saved === 1;
    const removedAt = isSaved ? null : (row?.removed_at ?? null);
    return {
      isSaved,
      lastFour: isSaved ? (row?.last_four ?? null) : null,
      removedAt,
      removedBy: removedAt === null ? null : (row?.removed_by ?? "customer"),
    };
  },

  /** True when any record of the customer still holds a card token. */
  hasAnyToken: async (db: Database, userId: number) =>
    (await statement<{ found: number }, [number, number]>(
      db,
      `SELECT 1 AS found WHERE EXISTS (SELECT 1 FROM subscriptions WHERE user_id = ? AND card_token IS NOT NULL)
         OR EXISTS (SELECT 1 FROM payments WHERE user_id = ? AND card_token IS NOT NULL)`,
    ).get(userId, userId)) !== undefined,

  /** A charge with the saved card that is on its way to the gateway now (renewal or device slot). */
  hasChargeInFlight: async (db: Database, userId: number) =>
    (await statement<{ found: number }, [number]>(
      db,
      "SELECT 1 AS found FROM payments WHERE user_id = ? AND status = 'pending' AND kind IN ('renewal', 'device') LIMIT 1",
    ).get(userId)) !== undefined,

  /** Forgets every token of the customer; the subscriptions that had one record when and by whom. */
  async forget(db: Database, userId: number, by: SavedMethodRemover, now: number): Promise<void> {
    await statement(
      db,
      `UPDATE subscriptions SET card_token = NULL, card_last_four = NULL, card_removed_at = ?, card_removed_by = ?,
         updated_at = ? WHERE user_id = ? AND (card_token IS NOT NULL OR card_last_four IS NOT NULL)`,
    ).run(now, by, now, userId);
    // Payment rows keep their last four (what paid them); the token is what could charge
    // again. Their updated_at stays: binding a prepaid purchase dates access from it.
    await statement(
      db,
      "UPDATE payments SET card_token = NULL WHERE user_id = ? AND card_token IS NOT NULL",
    ).run(userId);
  },

  /** Renewal off: the subscription runs to its paid end and is not charged again. */
  stopRenewal: (db: Database, subscriptionId: number, by: SavedMethodRemover, now: number) =>
    statement(
      db,
      `UPDATE subscriptions SET status = 'CANCELED', next_charge_at = NULL, card_removed_at = ?, card_removed_by = ?,
         updated_at = ? WHERE id = ? AND status = 'ACTIVE'`,
    ).run(now, by, now, subscriptionId),
};
