import type { Database } from "../../../db/database";
import { statement } from "../../../db/database";

/**
 * The 1-unit first payment is given once per customer (DESIGN §13): a customer who has
 * a paid trial (refunded ones included: the trial was taken) pays the full price next time.
 * So does a former customer whose first payment was the full price: they are not new.
 */
export async function hasHadTrial(database: Database, userId: number): Promise<boolean> {
  return (
    (await statement<{ found: number }, [number]>(
      database,
      `SELECT 1 AS found FROM payments WHERE user_id = ? AND kind = 'first'
         AND status IN ('completed', 'refunded') LIMIT 1`,
    ).get(userId)) !== undefined
  );
}

/** The card of a payment, as the gateway describes it; undefined when it did not say. */
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

/** Whether a card already paid a trial, for anyone. */
export async function hasCardHadTrial(database: Database, fingerprint: string): Promise<boolean> {
  return (
    (await statement<{ found: number }, [string]>(
      database,
      `SELECT 1 AS found FROM payments WHERE card_fingerprint = ? AND is_trial = 1
         AND status IN ('completed', 'refunded') LIMIT 1`,
    ).get(fingerprint)) !== undefined
  );
}
