/**
 * The billing turn (Database.inTurn): one lock, on every instance, for everything that
 * decides whether a saved card may be charged or what a charge will be. Pre-charge notice
 * batches, device slot purchases (opening and settling), card removal and account
 * deletion take it alone; renewal claims take it shared (they keep apart from one another
 * by their row locks, renewal-claim.ts). So each sees what the previous holder committed:
 * a renewal claimed just before a card removal or a deletion is seen as a charge in
 * flight, and a slot purchase opened just before a claim holds that renewal back (for
 * devicePurchaseHoldMs at most), since the slot changes the renewal's price and notice.
 */
export const billingTurn = "billing";

/**
 * How long a device purchase holds its subscription's renewal: the gateway answers in
 * seconds; a purchase cut short by a crash must not hold the renewal for ever.
 */
export const devicePurchaseHoldMs = 15 * 60_000;
