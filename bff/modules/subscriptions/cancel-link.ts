import { Elysia } from "elysia";
import { formatDateUntil, isoTime } from "../../../core/date-time";
import type { Language } from "../../../core/languages";
import { hasAccess, subscriptions } from "../../../db/queries/subscriptions";
import { users } from "../../../db/queries/users";
import type { AppContext } from "../../context";
import { type LimitKey, releaseAttempt, reserveAttempt } from "../../platform/attempt-limit";
import { AppError } from "../../platform/errors";
import { errorResponse } from "../../platform/schemas";
import { isCrossSite } from "../session/session-cookie";
import { verifyCancelToken } from "./cancel-token";
import { cancelLinkAccount, cancelLinkBody, subscriptionResult } from "./model";
import { cancelSubscription } from "./service";

/**
 * The signed cancel link of a renewal notice (DESIGN §14): `/cancel?token=…` opens the
 * cancel screen of the account the token names and cancels it, with no sign-in. The
 * token is good for these two calls only: it makes no session and sets no cookie.
 */

/** Wrong tokens per address per hour, then 429: enough for typos, too few to probe with. */
export const cancelLinkLimit = 20;
const limitKeys = (address: string): LimitKey[] => [
  { key: `cancel-link:address:${address}`, limit: cancelLinkLimit, windowMs: 60 * 60 * 1000 },
];

/**
 * The end of access as the mails' dates are kept: Moscow time, Almaty time for kk (DESIGN
 * §14); in the form a date takes before "until" (Kazakh's dative before "дейін").
 */
const untilIn = (language: Language, time: number) =>
  formatDateUntil(time, language, { timeZone: language === "kk" ? "Asia/Almaty" : "Europe/Moscow" });

export function cancelLinkRoutes(
  context: Pick<AppContext, "database" | "clock" | "config" | "clientAddress">,
) {
  const { database, clock, config } = context;

  /**
   * The account a token names. Every call is counted for its address before the token is
   * looked at and given back when the token was good, so only wrong tokens use the limit.
   * A tampered, expired or foreign token and one naming no account all read the same.
   * Refusals are in the visitor's language: the link's reader may not be signed in.
   */
  async function accountOf(request: Request, token: string) {
    const keys = limitKeys(context.clientAddress(request));
    const now = clock.now();
    await reserveAttempt(database, keys, now, "too_many_cancel_links");
    const userId = verifyCancelToken(config.jwtSecret, token, now);
    const user = userId === undefined ? undefined : await users.byId(database, userId);
    // An account deleted since the link was sent is no account: its link opens nothing.
    if (!user || user.deleted_at) throw new AppError("cancel_link_invalid");
    await releaseAttempt(database, keys);
    return { user, now };
  }

  /** Why there was nothing to cancel: an already cancelled one says until when. */
  async function notCancellable(userId: number, now: number): Promise<AppError> {
    const subscription = await subscriptions.current(database, userId);
    const endDate = subscription?.end_date;
    return subscription?.status === "CANCELED" && hasAccess(subscription, now) && endDate
      ? new AppError("already_cancelled", { until: (language) => untilIn(language, endDate) })
      : new AppError("account_has_no_subscription");
  }

  return new Elysia()
    .post(
      "/cancel-link",
      async ({ body, request }) => {
        const { user, now } = await accountOf(request, body.token);
        const subscription = await subscriptions.current(database, user.id);
        return {
          success: true as const,
          email: user.email,
          status: subscription?.status ?? "NOT_ACTIVE",
          subscriptionIsActive: hasAccess(subscription, now),
          endDate: isoTime(subscription?.end_date),
        };
      },
      {
        body: cancelLinkBody,
        response: { 200: cancelLinkAccount, 400: errorResponse, 401: errorResponse, 429: errorResponse },
        detail: {
          summary:
            "What the cancel screen of a signed cancel link shows: the account's e-mail and subscription state",
        },
      },
    )
    .post(
      "/cancel-link/cancel",
      async ({ body, request }) => {
        if (isCrossSite(request)) throw new AppError("cross_site_request");
        const { user, now } = await accountOf(request, body.token);
        try {
          // The cabinet's own cancel, so both ways of cancelling do exactly the same.
          // Awaited here, so its refusal is caught below and worded for the link.
          return await cancelSubscription(database, user.id, now);
        } catch (error) {
          if (error instanceof AppError && error.code === "nothing_to_cancel")
            throw await notCancellable(user.id, now);
          throw error;
        }
      },
      {
        body: cancelLinkBody,
        response: {
          200: subscriptionResult,
          400: errorResponse,
          401: errorResponse,
          403: errorResponse,
          409: errorResponse,
          429: errorResponse,
        },
        detail: {
          summary:
            "Cancel with a signed cancel link, exactly like the cabinet's cancel: access runs to the end of the paid period",
        },
      },
    );
}
