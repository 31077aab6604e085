import type { Database } from "../../../../db/database";
import type { CardOnFile, PaymentRow } from "../../../../db/queries/payments";
import { trials } from "../../../../db/queries/trials";
import { logger } from "../../../platform/logger";
import { claimTrialCard, hasOtherFirstPayment, markTrialRefusal, type TrialRefusal } from "./trial";

/**
 * Pay's half of "the trial once per customer and once per card" (DESIGN §13). Check
 * refuses a card that had a trial, but two payments whose Checks both came before either
 * Pay pass it, as do two tabs of one customer. So here, in the transaction that settles
 * the payment, the customer is asked again and the card is claimed (trial_cards' key lets
 * one payment win, on any instance). A refused trial is recorded as paid (the bank took
 * it) but buys nothing: it is taken off the subscription, so it never counts as a period's
 * charge, and refused-trial-refunds.ts sends the money back. True when refused.
 */
export async function refuseTrialAtPay(
  database: Database,
  payment: PaymentRow,
  card: CardOnFile,
  now: number,
): Promise<boolean> {
  let refusal: TrialRefusal | undefined;
  if (payment.user_id !== null && (await hasOtherFirstPayment(database, payment.user_id, payment.id)))
    refusal = "customer";
  else if (card.fingerprint && !(await claimTrialCard(database, card.fingerprint, payment.id, now)))
    refusal = "card";
  if (!refusal) {
    // Check refused another card for this order before; this one passed.
    if (payment.trial_refusal) await markTrialRefusal(database, payment.id, null, now);
    return false;
  }
  await trials.refuseAtPay(database, payment.id, refusal, now);
  logger.info("a paid trial was refused at Pay; it buys nothing and is refunded", {
    paymentId: payment.id,
    refusal,
  });
  return true;
}
