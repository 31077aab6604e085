import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";

/**
 * The 1-unit first payment is given once per customer (DESIGN §13): a customer who has
 * a paid trial (refunded ones included: the trial was taken) pays the full price next time.
 * So does a former customer whose first payment was the full price: they are not new.
 * A paid trial that was refused its trial (`trial_refusal`: bought nothing, refunded) was
 * never theirs, so it does not count.
 */
export async function hasHadTrial(database: Database, userId: number): Promise<boolean> {
  return (
    (await statement<{ found: number }, [number]>(
      database,
      `SELECT 1 AS found FROM payments WHERE user_id = ? AND kind = 'first'
         AND status IN ('completed', 'refunded') AND trial_refusal IS NULL LIMIT 1`,
    ).get(userId)) !== undefined
  );
}

/** Whether the customer has a first payment other than `paymentId` that counts (see hasHadTrial). */
export async function hasOtherFirstPayment(
  database: Database,
  userId: number,
  paymentId: number,
): Promise<boolean> {
  return (
    (await statement<{ found: number }, [number, number]>(
      database,
      `SELECT 1 AS found FROM payments WHERE user_id = ? AND kind = 'first' AND id <> ?
         AND status IN ('completed', 'refunded') AND trial_refusal IS NULL LIMIT 1`,
    ).get(userId, paymentId)) !== undefined
  );
}

/**
 * The card of a payment, as the gateway describes it; undefined when it did not say.
 * First six, last four and expiry, as DESIGN §13 names them: a reissued card with a new
 * expiry is another card (README, Money rules, says why six and four alone are not used).
 */
export function cardFingerprint(card: {
  firstSix?: string | null;
  lastFour?: string | null;
  expiry?: string | null;
}): string | undefined {
  const firstSix = card.firstSix?.trim();
  const lastFour = card.lastFour?.trim();
  const expiry = card.expiry?.trim();
  if (!firstSix || !lastFour || !expiry) return undefined;
  return `${firstSix}|${lastFour}|${expiry}`;
}

/** Whether a card already paid a trial, for anyone (Check's question; Pay claims the card). */
export async function hasCardHadTrial(database: Database, fingerprint: string): Promise<boolean> {
  return (
    (await statement<{ found: number }, [string]>(
      database,
      "SELECT 1 AS found FROM trial_cards WHERE card_fingerprint = ?",
    ).get(fingerprint)) !== undefined
  );
}

/**
 * Claims the card's trial for a payment, in the settlement's transaction: true when this
 * payment holds it (now or already), false when another payment does. The primary key
 * decides, so of two payments settled at once, on any instances, one wins.
 */
export async function claimTrialCard(
  database: Database,
  fingerprint: string,
  paymentId: number,
  now: number,
): Promise<boolean> {
  await statement(
    database,
    `INSERT INTO trial_cards (card_fingerprint, payment_id, claimed_at) VALUES (?, ?, ?)
     ON CONFLICT (card_fingerprint) DO NOTHING`,
  ).run(fingerprint, paymentId, now);
  const holder = await statement<{ payment_id: number }, [string]>(
    database,
    "SELECT payment_id FROM trial_cards WHERE card_fingerprint = ?",
  ).get(fingerprint);
  return holder?.payment_id === paymentId;
}

/** A paid trial that was refused after it claimed its card (bound to an account that had one) gives the card back. */
export async function releaseTrialCard(database: Database, paymentId: number): Promise<void> {
  await statement(database, "DELETE FROM trial_cards WHERE payment_id = ?").run(paymentId);
}

export type TrialRefusal = "card" | "customer" | "account";

/** Records why a 1-unit payment was not given its trial (undefined clears a Check's earlier refusal). */
export async function markTrialRefusal(
  database: Database,
  paymentId: number,
  refusal: TrialRefusal | null,
  now: number,
): Promise<void> {
  await statement(database, "UPDATE payments SET trial_refusal = ?, updated_at = ? WHERE id = ?").run(
    refusal,
    now,
    paymentId,
  );
}
