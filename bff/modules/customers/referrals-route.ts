import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { customerErrors, customerIdentity } from "../../platform/schemas";
import { referralInvitees } from "../subscriptions/referral-standing";
import { customerAuth } from "./customer-auth";

/** "anna.smith@mail.ru" → "an•••@mail.ru": enough for the inviter to recognise a friend, no more. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  return `${email.slice(0, Math.min(2, at))}•••${email.slice(at)}`;
}

const reason = t.Union([
  t.Literal("counts"),
  t.Literal("not-paid-yet"),
  t.Literal("trial-only"),
  t.Literal("not-active"),
  t.Literal("inviters-card"),
]);

/** The customer's invited friends and whether each counts toward the referral discount, and why. */
export function referralsModule(context: AppContext) {
  return new Elysia({ prefix: "/profile", tags: ["cabinet"] }).use(customerAuth(context)).post(
    "/referrals",
    async ({ customer }) => ({
      success: true as const,
      invitees: (await referralInvitees(context.database, customer.id)).map((invitee) => ({
        email: maskEmail(invitee.email),
        invitedAt: new Date(invitee.invitedAt).toISOString(),
        counts: invitee.reason === "counts",
        reason: invitee.reason,
      })),
    }),
    {
      customer: true,
      body: t.Object(customerIdentity),
      response: {
        200: t.Object({
          success: t.Literal(true),
          invitees: t.Array(
            t.Object({ email: t.String(), invitedAt: t.String(), counts: t.Boolean(), reason }),
          ),
        }),
        ...customerErrors,
      },
      detail: {
        summary: "Invited friends: who counts toward the referral discount and why",
        description:
          "A friend counts while its subscription is ACTIVE and after a charge other than the 1-unit trial, and never when it paid with the inviter's card.",
      },
    },
  );
}
