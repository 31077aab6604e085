import { percentToFraction } from "../../../core/money";
import type { Database } from "../../../db/database";
import type { ReferralList } from "./model";
import { referralStandingOf } from "./referral-standing";

/** "anna.smith@mail.ru" → "an•••@mail.ru": enough for the inviter to recognise a friend, no more. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  return `${email.slice(0, Math.min(2, at))}•••${email.slice(at)}`;
}

/** The inviter's friends, each masked, with whether it counts toward the referral discount and why. */
export async function referralListOf(database: Database, inviterId: number): Promise<ReferralList> {
  const standing = await referralStandingOf(database, inviterId);
  return {
    success: true as const,
    periodMonths: standing.periodMonths,
    referralDiscount: percentToFraction(standing.referralPercent),
    invitees: standing.invitees.map((invitee) => ({
      email: maskEmail(invitee.email),
      invitedAt: new Date(invitee.invitedAt).toISOString(),
      counts: invitee.reason === "counts",
      reason: invitee.reason,
      periodMonths: invitee.periodMonths,
      discountPercent: invitee.discountPercent,
    })),
  };
}
