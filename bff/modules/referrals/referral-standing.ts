import { percentOf, referralShare } from "../../../core/prices";
import type { Database } from "../../../db/database";
import { type InviteeStanding, invitations } from "../../../db/queries/invitations";
import { subscriptions } from "../../../db/queries/subscriptions";

/** Why an invitee does or does not count toward the inviter's discount. */
export type ReferralReason = "counts" | "not-paid-yet" | "trial-only" | "not-active" | "inviters-card";

export type ReferralInvitee = {
  inviteeId: number;
  email: string;
  invitedAt: number;
  reason: ReferralReason;
  /** The months the invitee's own paid period covers (its tariff), when it has one. */
  periodMonths: number | null;
};

/**
 * An invitee counts while its subscription is ACTIVE (not canceled, not expired) and
 * after a charge other than the 1-unit trial, discounted ones included; never when it
 * paid with the inviter's own card (DESIGN §13). So trial-only puppet accounts, or
 * accounts the inviter pays for, give nothing.
 */
export function reasonOf(invitee: InviteeStanding): ReferralReason {
  if (invitee.usesInviterCard) return "inviters-card";
  if (invitee.status !== "ACTIVE")
    return invitee.status === null || invitee.status === "NOT_ACTIVE" ? "not-paid-yet" : "not-active";
  if (!invitee.hasPaidCharge) return "trial-only";
  return "counts";
}

export async function referralInvitees(database: Database, inviterId: number): Promise<ReferralInvitee[]> {
  return (await invitations.standing(database, inviterId)).map((invitee) => ({
    inviteeId: invitee.inviteeId,
    email: invitee.email,
    invitedAt: invitee.invitedAt,
    reason: reasonOf(invitee),
    periodMonths: invitee.periodMonths,
  }));
}

/**
 * What one invitee takes off the inviter's period of `periodMonths`, in percent: 25, or
 * less when it pays for fewer months than that period (a month of payment gives at most a
 * month of discount); 0 when it does not count.
 */
export const inviteeDiscountPercent = (invitee: ReferralInvitee, periodMonths: number): number =>
  invitee.reason === "counts" ? percentOf(referralShare([invitee.periodMonths ?? 1], periodMonths)) : 0;

/** The months each counting invitee's own paid period covers (the referral discount's basis). */
export const countingInviteeMonths = async (database: Database, inviterId: number): Promise<number[]> =>
  (await invitations.standing(database, inviterId))
    .filter((invitee) => reasonOf(invitee) === "counts")
    .map((invitee) => invitee.periodMonths ?? 1);

/** countingInviteeMonths of many inviters in one read, by inviter (none: no counting invitee). */
export async function countingInviteeMonthsOf(
  database: Database,
  inviterIds: readonly number[],
): Promise<Map<number, number[]>> {
  const months = new Map<number, number[]>();
  if (inviterIds.length === 0) return months;
  for (const invitee of await invitations.standingOfInviters(database, inviterIds)) {
    if (reasonOf(invitee) !== "counts") continue;
    const counted = months.get(invitee.inviterId) ?? [];
    counted.push(invitee.periodMonths ?? 1);
    months.set(invitee.inviterId, counted);
  }
  return months;
}

/**
 * The inviter's referral discount as a renewal of its own period charges it: each
 * invitee's part and the total, for the months of the inviter's current period (1 before
 * it has one, as the shop prices it).
 */
export async function referralStandingOf(database: Database, inviterId: number) {
  const periodMonths = (await subscriptions.current(database, inviterId))?.tariff_months ?? 1;
  const invitees = await referralInvitees(database, inviterId);
  const counting = invitees.filter((invitee) => invitee.reason === "counts");
  return {
    periodMonths,
    referralPercent: percentOf(
      referralShare(
        counting.map((invitee) => invitee.periodMonths ?? 1),
        periodMonths,
      ),
    ),
    invitees: invitees.map((invitee) => ({
      ...invitee,
      discountPercent: inviteeDiscountPercent(invitee, periodMonths),
    })),
  };
}
