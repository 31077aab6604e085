import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { customerIdentity } from "../../platform/schemas";
import { customerAuth } from "../session/customer-auth";
import { referralCodeResponses, referralListResponses, referralQrQuery } from "./model";
import { ensureReferralCode } from "./referral-codes";
import { referralListOf } from "./referral-list";
import { inviteLink, renderReferralQr } from "./referral-qr";

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
        response: referralCodeResponses,
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
        query: referralQrQuery,
        detail: { summary: "The customer's invite link as a QR code PNG (256 px, margin 4, level H)" },
      },
    )
    .post("/referrals", ({ customer }) => referralListOf(database, customer.id), {
      customer: true,
      body: t.Object(customerIdentity),
      response: referralListResponses,
      detail: {
        summary: "Invited friends: who counts toward the referral discount and why",
        description:
          "A friend counts while its subscription is ACTIVE and after a charge other than the 1-unit trial, and never when it paid with the inviter's card. Each counting friend takes 25% off the inviter's period, prorated when the friend pays for fewer months than that period (a month of the friend's payment gives at most a month of discount): four one-month friends take one month's price off a year. `referralDiscount` and each `discountPercent` are for the inviter's own period (`periodMonths`).",
      },
    });
}
