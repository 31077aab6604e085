import type { Currency } from "../../../core/money";

/**
 * The messages the product sends its customers (DESIGN §14) and the facts each one states.
 * Amounts are in minor units (kopecks, tiyn) with their currency; times are epoch ms and
 * are shown in Europe/Moscow (Asia/Almaty for kk). Links are absolute, built on PUBLIC_URL.
 */
export const mailKinds = [
  "trial_started",
  "renewal_notice",
  "payment_succeeded",
  "payment_failed",
  "subscription_canceled",
  "card_removed",
  "subscription_ended",
  "refund_made",
  "sbp_autopay_canceled",
] as const;
export type MailKind = (typeof mailKinds)[number];

export type Money = { amount: number; currency: Currency };

export type MailData = {
  /** Trial paid: how long it lasts and the first full charge (DESIGN §13(c)). */
  trial_started: { trialDays: number; firstChargeAt: number; firstCharge: Money; tariffMonths: number };
  /** §13(a): the charge's date and amount, how to cancel and a signed link to cancel. */
  renewal_notice: { chargeAt: number; charge: Money; tariffMonths: number; cancelUrl: string };
  /** A charge went through (first full, renewal, extra device): what for and the receipt. */
  payment_succeeded: {
    charge: Money;
    paidAt: number;
    what: "subscription" | "device";
    tariffMonths: number | null;
    paidUntil: number | null;
    /** The receipt's path, made whole on the public origin when rendered (links.ts). */
    receiptUrl: string;
  };
  /** A renewal was declined: the next retry (null when no more) and what to do. */
  payment_failed: { charge: Money; failedAt: number; nextRetryAt: number | null; accessUntil: number | null };
  subscription_canceled: { accessUntil: number };
  card_removed: { lastFour: string | null; accessUntil: number | null };
  subscription_ended: { endedAt: number };
  /**
   * Money went back: how much, when, for how many payments, the way it goes back (to a
   * card, by SBP to the payer's account, or both) and whether it ended access. Both are
   * absent from messages queued before they were told: a card's words, access ended.
   */
  refund_made: {
    refund: Money;
    refundedAt: number;
    payments: number;
    way?: RefundWay;
    accessEnded?: boolean;
  };
  /**
   * The payer's bank ended the SBP autopay binding (DESIGN §13(b), as a card removal):
   * renewals stop; `accessUntil` is null when the paid period is already over.
   */
  sbp_autopay_canceled: { accessUntil: number | null };
};

/** How refunded money goes back: the way each payment came (DESIGN §6). */
export type RefundWay = "card" | "sbp" | "both";

/** Links every message carries: the cabinet (and the company line, from core/company.ts). */
export type MailLinks = { cabinetUrl: string };

export type MailContent = { subject: string; text: string; html: string };
