import type { Database } from "bun:sqlite";
import { yooKassaLedgerMethods } from "../../../db/queries/yookassa-ledger";
import { parseExpiry } from "../sandbox/card-book";
import { type CardOutcome, cardOutcome, normalizeCard } from "../sandbox/cards";

/** A card as the payer enters it on the checkout page, its expiry as YooKassa states it. */
export type EnteredCard = { number: string; month: string; year: string };

/** Every MM/YY there is, from 01/2030 on, as the CloudPayments sandbox hands them out. */
const expiryCount = 1200;
const expiryAt = (index: number) => {
  const wrapped = index % expiryCount;
  return {
    month: String((wrapped % 12) + 1).padStart(2, "0"),
    year: String(2030 + Math.floor(wrapped / 12)),
  };
};

/**
 * The card a checkout is paid with: the same test cards as the CloudPayments sandbox
 * (DESIGN §6). An expiry ("MM/YY") names the card; without one the payment is made with a
 * card of its own, an expiry no earlier card of that number had, so the card fingerprints
 * the trial rule compares (first six, last four, expiry) tell them apart. Undefined for a
 * malformed expiry.
 */
export function enteredCard(ledger: Database, cardNumber: string, expiry?: string): EnteredCard | undefined {
  const number = normalizeCard(cardNumber);
  if (expiry !== undefined) {
    const parsed = parseExpiry(expiry);
    if (!parsed) return undefined;
    const [month = "", year = ""] = parsed.split("/");
    return { number, month, year: `20${year}` };
  }
  let index = yooKassaLedgerMethods.cardsOf(ledger, number);
  for (;;) {
    const candidate = expiryAt(index);
    if (
      !yooKassaLedgerMethods.hasCard(ledger, number, candidate.month, candidate.year) ||
      index > 2 * expiryCount
    )
      return { number, ...candidate };
    index++;
  }
}

/** CloudPayments' reason codes of the shared test cards, in YooKassa's words. */
const reasons: Record<number, { party: string; reason: string }> = {
  5051: { party: "payment_network", reason: "insufficient_funds" },
  5054: { party: "payment_network", reason: "card_expired" },
  5014: { party: "yoo_money", reason: "invalid_card_number" },
};

export type YooKassaCardOutcome = { isApproved: true } | { isApproved: false; party: string; reason: string };

/** `isCheckout`: the payer pays on the page; otherwise the shop charges the saved card. */
export function yooKassaCardOutcome(number: string, isCheckout: boolean): YooKassaCardOutcome {
  const outcome: CardOutcome = cardOutcome(number, isCheckout);
  if (outcome.isApproved) return outcome;
  return {
    isApproved: false,
    ...(reasons[outcome.reasonCode] ?? { party: "payment_network", reason: "general_decline" }),
  };
}
