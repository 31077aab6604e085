import { Elysia } from "elysia";
import { formatDateUntil } from "../../../core/date-time";
import type { Language } from "../../../core/languages";
import { hasAccess, subscriptions } from "../../../db/queries/subscriptions";
import { users } from "../../../db/queries/users";
import type { AppContext } from "../../context";
import { type LimitKey, releaseAttempt, reserveAttempt } from "../../platform/attempt-limit";
import { AppError } from "../../platform/errors";
import { requestLanguage } from "../../platform/request-language";
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

type Texts = {
  invalid: string;
  alreadyCancelled: (date: string) => string;
  notActive: string;
  tooMany: (minutes: number) => string;
};

/** In the visitor's language: the link's reader may not be signed in, so we know no account's. */
const texts: Record<Language, Texts> = {
  en: {
    invalid:
      "This cancel link is invalid or has expired (a link works for 7 days). Sign in to your personal cabinet to cancel your subscription there.",
    alreadyCancelled: (date) =>
      `This subscription is already cancelled. Access stays open until ${date}, and nothing more will be charged.`,
    notActive:
      "There is no active subscription on this account, so there is nothing to cancel and nothing will be charged.",
    tooMany: (minutes) =>
      `Too many invalid cancel links from your network. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}, or sign in to your personal cabinet to cancel there.`,
  },
  ru: {
    invalid:
      "Ссылка для отмены недействительна или устарела (ссылка действует 7 дней). Войдите в личный кабинет, чтобы отменить подписку там.",
    alreadyCancelled: (date) =>
      `Эта подписка уже отменена. Доступ сохранится до ${date}, списаний больше не будет.`,
    notActive: "На этом аккаунте нет активной подписки: отменять нечего, и списаний не будет.",
    tooMany: (minutes) =>
      `Слишком много недействительных ссылок для отмены из вашей сети. Попробуйте снова через ${minutes} мин. или войдите в личный кабинет и отмените подписку там.`,
  },
  zh: {
    invalid: "此取消链接无效或已过期（链接有效期为 7 天）。请登录个人中心，在那里取消订阅。",
    alreadyCancelled: (date) => `该订阅已取消。访问权限保留至 ${date}，之后不会再扣款。`,
    notActive: "该账户没有有效的订阅，无需取消，也不会扣款。",
    tooMany: (minutes) =>
      `来自您网络的无效取消链接过多。请在 ${minutes} 分钟后重试，或登录个人中心在那里取消订阅。`,
  },
  kk: {
    invalid:
      "Тоқтату сілтемесі жарамсыз немесе мерзімі өтіп кеткен (сілтеме 7 күн жарамды). Жазылымды тоқтату үшін жеке кабинетке кіріңіз.",
    alreadyCancelled: (date) =>
      `Бұл жазылым бұрын тоқтатылған. Қолжетімділік ${date} дейін сақталады, бұдан былай ақша алынбайды.`,
    notActive: "Бұл аккаунтта белсенді жазылым жоқ: тоқтататын ештеңе жоқ және ақша алынбайды.",
    tooMany: (minutes) =>
      `Сіздің желіңізден жарамсыз тоқтату сілтемелері тым көп. ${minutes} минуттан кейін қайталаңыз немесе жеке кабинетке кіріп, сол жерде тоқтатыңыз.`,
  },
};

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

const iso = (time: number | null | undefined) => (time ? new Date(time).toISOString() : null);

export function cancelLinkRoutes(context: AppContext) {
  const { database, clock, config } = context;

  /**
   * The account a token names. Every call is counted for its address before the token is
   * looked at and given back when the token was good, so only wrong tokens use the limit.
   * A tampered, expired or foreign token and one naming no account all read the same.
   */
  async function accountOf(request: Request, token: string) {
    const language = requestLanguage(request);
    const keys = limitKeys(context.clientAddress(request));
    const now = clock.now();
    await reserveAttempt(database, keys, now, texts[language].tooMany);
    const userId = verifyCancelToken(config.jwtSecret, token, now);
    const user = userId === undefined ? undefined : await users.byId(database, userId);
    // An account deleted since the link was sent is no account: its link opens nothing.
    if (!user || user.deleted_at) throw new AppError("UNAUTHORIZED", texts[language].invalid);
    await releaseAttempt(database, keys);
    return { user, language, now };
  }

  /** Why there was nothing to cancel, in words: an already cancelled one says until when. */
  async function notCancellable(userId: number, language: Language, now: number): Promise<string> {
    const subscription = await subscriptions.current(database, userId);
    return subscription?.status === "CANCELED" && hasAccess(subscription, now) && subscription.end_date
      ? texts[language].alreadyCancelled(untilIn(language, subscription.end_date))
      : texts[language].notActive;
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
          endDate: iso(subscription?.end_date),
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
        if (isCrossSite(request))
          throw new AppError("FORBIDDEN", "Requests from other sites are not accepted.");
        const { user, language, now } = await accountOf(request, body.token);
        try {
          // The cabinet's own cancel, so both ways of cancelling do exactly the same.
          // Awaited here, so its refusal is caught below and worded for the link.
          return await cancelSubscription(database, user.id, now);
        } catch (error) {
          if (error instanceof AppError && error.code === "CONFLICT")
            throw new AppError("CONFLICT", await notCancellable(user.id, language, now));
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
