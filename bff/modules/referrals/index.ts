import { Elysia, t } from "elysia";
import { percentToFraction } from "../../../core/money";
import type { AppContext } from "../../context";
import { customerErrors, customerIdentity } from "../../platform/schemas";
import { customerAuth } from "../session/customer-auth";
import { ensureReferralCode } from "./referral-codes";
import { inviteLink, renderReferralQr } from "./referral-qr";
import { referralStandingOf } from "./referral-standing";

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

/**
 * The cabinet's referral calls: the customer's code and its QR, and the invited friends,
 * whether each counts toward the referral discount, and why.
 */
export function referralsModule(context: AppContext) {
  const { database } = context;
  return new Elysia({ prefix: "/profile", tags: ["cabinet"] })
    .use(customerAuth(context))
    .post(
      "/getReferralCode",
      async ({ customer }) => ({
        success: true as const,
        referralCode: await ensureReferralCode(database, customer.id),
      }),
      {
        customer: true,
        body: t.Object(customerIdentity),
        response: {
          200: t.Object({ success: t.Literal(true), referralCode: t.String() }),
          ...customerErrors,
        },
        detail: { summary: "The customer's referral code, created on first request" },
      },
    )
    .get(
      "/referralQr.png",
      async ({ customer, query, request }) => {
        // The demo's default origin is a guess (localhost); the origin the customer reached is not.
        const origin = context.config.isPublicUrlDefault
          ? new URL(request.url).origin
          : context.config.publicUrl;
        const png = await renderReferralQr(
          inviteLink(origin, await ensureReferralCode(database, customer.id)),
        );
        return new Response(png, {
          headers: {
            "content-type": "image/png",
            "cache-control": "private, max-age=3600",
            "content-disposition": `${query.download ? "attachment" : "inline"}; filename="kannt-invite-qr.png"`,
          },
        });
      },
      {
        customer: true,
        query: t.Object({ download: t.Optional(t.String({ maxLength: 5 })) }),
        detail: { summary: "The customer's invite link as a QR code PNG (256 px, margin 4, level H)" },
      },
    )
    .post(
      "/referrals",
      async ({ customer }) => {
        const standing = await referralStandingOf(database, customer.id);
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
      },
      {
        customer: true,
        body: t.Object(customerIdentity),
        response: {
          200: t.Object({
            success: t.Literal(true),
            /** The months of the inviter's period, which the discount below is for. */
            periodMonths: t.Number(),
            /** The referral discount a renewal of that period takes off, as a fraction. */
            referralDiscount: t.Number(),
            invitees: t.Array(
              t.Object({
                email: t.String(),
                invitedAt: t.String(),
                counts: t.Boolean(),
                reason,
                /** The months the friend's own paid period covers (null before it has a plan). */
                periodMonths: t.Union([t.Number(), t.Null()]),
                /** What this friend takes off the inviter's period, in percent. */
                discountPercent: t.Number(),
              }),
            ),
          }),
          ...customerErrors,
        },
        detail: {
          summary: "Invited friends: who counts toward the referral discount and why",
          description:
            "A friend counts while its subscription is ACTIVE and after a charge other than the 1-unit trial, and never when it paid with the inviter's card. Each counting friend takes 25% off the inviter's period, prorated when the friend pays for fewer months than that period (a month of the friend's payment gives at most a month of discount): four one-month friends take one month's price off a year. `referralDiscount` and each `discountPercent` are for the inviter's own period (`periodMonths`).",
        },
      },
    );
}
