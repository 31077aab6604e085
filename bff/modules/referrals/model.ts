import { t } from "elysia";
import { customerErrors } from "../../platform/schemas";

const reason = t.Union([
  t.Literal("counts"),
  t.Literal("not-paid-yet"),
  t.Literal("trial-only"),
  t.Literal("not-active"),
  t.Literal("inviters-card"),
]);

export const referralCodeResponses = {
  200: t.Object({ success: t.Literal(true), referralCode: t.String() }),
  ...customerErrors,
};

export const referralQrQuery = t.Object({ download: t.Optional(t.String({ maxLength: 5 })) });

/** The invited friends as the inviter sees them: whether each counts toward the discount, and why. */
export const referralList = t.Object({
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
});
export type ReferralList = typeof referralList.static;

export const referralListResponses = { 200: referralList, ...customerErrors };
