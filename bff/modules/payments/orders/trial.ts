import type { Database } from "../../../../db/database";
import { type TrialRefusal, trials } from "../../../../db/queries/trials";

export type { TrialRefusal };

/**
 * The 1-unit first payment is given once per customer (DESIGN §13): a customer who has
 * a paid trial (refunded ones included: the trial was taken) pays the full price next time.
 * So does a former customer whose first payment was the full price: they are not new.
 * A paid trial that was refused its trial (`trial_refusal`: bought nothing, refunded) was
 * never theirs, so it does not count.
 */
export async function hasHadTrial(database: Database, userId: number): Promise<boolean> {
  return trials.hasFirstPayment(database, userId);
}

/** Whether the customer has a first payment other than `paymentId` that counts (see hasHadTrial). */
export async function hasOtherFirstPayment(
  database: Database,
  userId: number,
  paymentId: number,
): Promise<boolean> {
  return trials.hasOtherFirstPayment(database, userId, paymentId);
}

/**
 * The card of a payment, as the gateway describes it; undefined when it did not say.
 * First six, last four and expiry, as DESIGN §13 names them: a reissued card with a new
 * expiry is another card (docs/money.md says why six and four alone are not used).
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
  return trials.isCardClaimed(database, fingerprint);
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
  await trials.claimCard(database, fingerprint, paymentId, now);
  return (await trials.cardHolder(database, fingerprint)) === paymentId;
}

/** A paid trial that was refused after it claimed its card (bound to an account that had one) gives the card back. */
export async function releaseTrialCard(database: Database, paymentId: number): Promise<void> {
  await trials.releaseCard(database, paymentId);
}

/** Records why a 1-unit payment was not given its trial (undefined clears a Check's earlier refusal). */
export async function markTrialRefusal(
  database: Database,
  paymentId: number,
  refusal: TrialRefusal | null,
  now: number,
): Promise<void> {
  await trials.markRefusal(database, paymentId, refusal, now);
}
