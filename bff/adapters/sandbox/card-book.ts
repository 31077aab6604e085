import type { Database } from "bun:sqlite";
import { ledgerCards } from "../../../db/queries/sandbox-ledger";
import type { Clock } from "../../platform/clock";
import { randomToken } from "../../platform/random";

/** A card as the gateway describes it: the number (for the test cards' behaviour) and its expiry. */
export type SandboxCard = { number: string; expiry: string; isNamed: boolean };

/** What the gateway tells of a card: never the whole number. */
export type CardData = { firstSix: string | null; lastFour: string | null; expiry: string | null };

export const describeCard = (number: string, expiry: string | null): CardData => ({
  firstSix: number.slice(0, 6),
  lastFour: number.slice(-4),
  expiry,
});

const expiryPattern = /^(0[1-9]|1[0-2])\/\d{2}$/;

/** `MM/YY`, spaces ignored; undefined when it is not one. */
export function parseExpiry(raw: string): string | undefined {
  const expiry = raw.replace(/\s/g, "");
  return expiryPattern.test(expiry) ? expiry : undefined;
}

/** Every MM/YY there is, from 01/30 on, so the ones handed out first lie in the future. */
const expiryCount = 1200;
const expiryAt = (index: number) => {
  const wrapped = index % expiryCount;
  const month = (wrapped % 12) + 1;
  const year = (30 + Math.floor(wrapped / 12)) % 100;
  return `${String(month).padStart(2, "0")}/${String(year).padStart(2, "0")}`;
};

/**
 * The sandbox bank's cards (DESIGN §11): payments naming the same number and expiry are
 * one card with one token; a payment naming no expiry is made with a card of its own,
 * whose expiry no earlier card of that number had, so card fingerprints (first six, last
 * four, expiry) tell them apart. A number has only 1,200 expiries: past that many cards
 * without an expiry, expiries repeat (the tokens never do).
 */
export function createCardBook(ledger: Database, clock: Clock) {
  const { namedToken, nextIndex, saveIndex, insert: insertCard } = ledgerCards.prepare(ledger);

  /** An expiry no card of this number has had yet (while there are any left). */
  function freshExpiry(number: string): string {
    let index = nextIndex.get(number)?.next_index ?? 0;
    while (index < expiryCount && namedToken.get(number, expiryAt(index))) index++;
    saveIndex.run(number, index + 1);
    return expiryAt(index);
  }

  return {
    /** The card a payment is made with, known before the charge (Check already describes it). */
    identify(number: string, expiry: string | undefined): SandboxCard {
      return expiry
        ? { number, expiry, isNamed: true }
        : { number, expiry: freshExpiry(number), isNamed: false };
    },

    /** The card's token once a payment with it succeeds: the one it already has, if named before. */
    tokenFor(card: SandboxCard, accountId: string): string {
      const existing = card.isNamed ? namedToken.get(card.number, card.expiry) : null;
      if (existing) return existing.token;
      const token = `tk_${randomToken(18)}`;
      insertCard.run(token, card.number, card.expiry, accountId, clock.now());
      return token;
    },

    byToken(token: string) {
      return ledgerCards.byToken(ledger, token) ?? undefined;
    },
  };
}

export type CardBook = ReturnType<typeof createCardBook>;
