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
  declined: "4012888888881881",
  firstThenDeclined: "4111111111111111",
  expiredLater: "4000000000000069",
} as const;

/**
 * Numbers that always succeed: 4242… (DESIGN §6) and the other test numbers payment
 * gateways publish (Visa debit, Mastercard 5- and 2-series, Mir, Discover, Diners, JCB,
 * UnionPay). A card's trial is once and one number has only 1,200 expiries (MM/YY), so
 * more approving numbers let large test runs give every customer a card of its own.
 */
export const approvingCards = [
  testCards.success,
  "5555555555554444",
  "4000056655665556",
  "2223003122003222",
  "5200828282828210",
  "5105105105105100",
  "2201382000000013",
  "6011111111111117",
  "3056930009020004",
  "3566002020360505",
  "6200000000000005",
] as const;
const approvingSet: ReadonlySet<string> = new Set(approvingCards);

export const normalizeCard = (cardNumber: string) => cardNumber.replace(/\D/g, "");

/** `isWidget`: paid through the widget by the customer; otherwise a saved-card charge by the merchant. */
export function cardOutcome(cardNumber: string, isWidget: boolean): CardOutcome {
  const number = normalizeCard(cardNumber);
  if (approvingSet.has(number)) return approved;
  switch (number) {
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
