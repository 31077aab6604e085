import type { Database } from "../../../db/database";
import { type InviteeStanding, invitations } from "../../../db/queries/invitations";

/** Why an invitee does or does not count toward the inviter's discount. */
export type ReferralReason = "counts" | "not-paid-yet" | "trial-only" | "not-active" | "inviters-card";

export type ReferralInvitee = { inviteeId: number; email: string; invitedAt: number; reason: ReferralReason };

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
  }));
}

export const countingInvitees = async (database: Database, inviterId: number) =>
  (await invitations.standing(database, inviterId)).filter((invitee) => reasonOf(invitee) === "counts")
    .length;
