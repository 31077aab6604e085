/**
 * The real gateway's test cards (DESIGN §6), plus one sandbox card for a hard decline.
 * Reason codes are CloudPayments'.
 */
export type CardOutcome = { isApproved: true } | { isApproved: false; reasonCode: number; reason: string };

const approved: CardOutcome = { isApproved: true };
const insufficientFunds: CardOutcome = { isApproved: false, reasonCode: 5051, reason: "InsufficientFunds" };
const expiredCard: CardOutcome = { isApproved: false, reasonCode: 5054, reason: "ExpiredCard" };
const invalidCard: CardOutcome = { isApproved: false, reasonCode: 5014, reason: "InvalidCardNumber" };

export const testCards = {
  success: "4242424242424242",
  /**
   * A second approving card (the gateways' usual Mastercard test number): a card's
   * trial is once, and one number has only 1,200 expiries, so large test runs alternate.
   */
  successMastercard: "5555555555554444",
  declined: "4012888888881881",
  firstThenDeclined: "4111111111111111",
  expiredLater: "4000000000000069",
} as const;

export const normalizeCard = (cardNumber: string) => cardNumber.replace(/\D/g, "");

/** `isWidget`: paid through the widget by the customer; otherwise a saved-card charge by the merchant. */
export function cardOutcome(cardNumber: string, isWidget: boolean): CardOutcome {
  switch (normalizeCard(cardNumber)) {
    case testCards.success:
    case testCards.successMastercard:
      return approved;
    case testCards.declined:
      return insufficientFunds;
    case testCards.firstThenDeclined:
      return isWidget ? approved : insufficientFunds;
    case testCards.expiredLater:
      return isWidget ? approved : expiredCard;
    default:
      return invalidCard;
  }
}
