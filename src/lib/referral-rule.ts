import { referralPercentPerInvitee, referralShare } from "../../core/prices";
import { percent } from "./format";

/**
 * The numbers /promo states its rule with, from the rule itself (core/prices.ts, DESIGN
 * §13): what one friend gives, and what a friend paying monthly gives a yearly plan, a
 * month of payment being worth at most a month of discount.
 */
export function referralRuleValues(language: string): { percent: string; yearlyShare: string } {
  const { numerator, denominator } = referralShare([1], 12);
  return {
    percent: percent(referralPercentPerInvitee / 100, language),
    yearlyShare: percent(numerator / denominator, language),
  };
}
