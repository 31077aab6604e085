import type { Database } from "../database";
import { statement } from "../database";

/** Removed card, renewal off, paid period over: the subscription has simply ended. */
/**
 * The saved card of a customer (DESIGN §13(b)). A card token lives on the subscription it
 * renews and, copied from the gateway's answer, on the payment rows it paid; removing the
 * card clears it from all of them.
 */
export const savedCards = {
  /**
   * What the cabinet and the panel show: the newest subscription that holds a token (an
   * expired one's card stays removable too), and the last removal.
   */
  async stateOf(db: Database, userId: number) {
    const row = await statement<
      { is_saved: number; last_four: string | null; removed_at: number | null },
      [number, number, number]
    >(
      db,
      `SELECT EXISTS (SELECT 1 FROM subscriptions WHERE user_id = ? AND card_token IS NOT NULL) AS is_saved,
         (SELECT card_last_four FROM subscriptions WHERE id =
           (SELECT MAX(id) FROM subscriptions WHERE user_id = ? AND card_token IS NOT NULL)) AS last_four,
         (SELECT MAX(card_removed_at) FROM subscriptions WHERE user_id = ?) AS removed_at`,
    ).get(userId, userId, userId);
    const isSaved = row?.is_saved === 1;
    return {
      isSaved,
      lastFour: isSaved ? (row?.last_four ?? null) : null,
      removedAt: isSaved ? null : (row?.removed_at ?? null),
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

  /** Forgets every token of the customer; the subscriptions that had one record when. */
  async forget(db: Database, userId: number, now: number): Promise<void> {
    await statement(
      db,
      `UPDATE subscriptions SET card_token = NULL, card_last_four = NULL, card_removed_at = ?, updated_at = ?
         WHERE user_id = ? AND (card_token IS NOT NULL OR card_last_four IS NOT NULL)`,
    ).run(now, now, userId);
    // Payment rows keep their last four (what paid them); the token is what could charge
    // again. Their updated_at stays: binding a prepaid purchase dates access from it.
    await statement(
      db,
      "UPDATE payments SET card_token = NULL WHERE user_id = ? AND card_token IS NOT NULL",
    ).run(userId);
  },

  /** Renewal off: the subscription runs to its paid end and is not charged again. */
  stopRenewal: (db: Database, subscriptionId: number, now: number) =>
    statement(
      db,
      `UPDATE subscriptions SET status = 'CANCELED', next_charge_at = NULL, card_removed_at = ?, updated_at = ?
         WHERE id = ? AND status = 'ACTIVE'`,
    ).run(now, now, subscriptionId),

  /**
   * Subscriptions whose card was removed and whose paid period has ended are EXPIRED:
   * nothing was charged, so no failed payment and no dunning, just the end, which the
   * customer is told of. The rows are read and expired in one transaction, so each
   * ending is told exactly once.
   */
};
