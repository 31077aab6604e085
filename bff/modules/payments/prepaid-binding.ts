import type { Language } from "../../../core/languages";
import type { Database } from "../../../db/database";
import { payments } from "../../../db/queries/payments";
import { hasAccess, subscriptions } from "../../../db/queries/subscriptions";
import { dayMs } from "../../platform/calendar";
import type { LocalizedText } from "../../platform/errors";
import { queueTrialStarted } from "../mail/events";
import { planFor } from "../shop/pricing";

export type PrepaidRefusal = "not-found" | "not-paid" | "refunded" | "other-account";
export type PrepaidOutcome = { bound: true } | { bound: false; reason: string; refusal: PrepaidRefusal };

const refusals: Record<PrepaidRefusal, LocalizedText> = {
  "not-found": {
    en: "This purchase was not found. If you paid, write to support with your payment receipt.",
    ru: "Эта покупка не найдена. Если вы оплатили, напишите в поддержку и приложите чек.",
    zh: "未找到此购买。如果您已付款，请携带付款收据联系客服。",
    kk: "Бұл сатып алу табылмады. Төлеген болсаңыз, түбіртекті қоса қолдау қызметіне жазыңыз.",
  },
  "not-paid": {
    en: "This purchase is not paid yet, so there is nothing to attach.",
    ru: "Эта покупка ещё не оплачена, поэтому привязывать нечего.",
    zh: "此购买尚未付款，因此无可绑定的内容。",
    kk: "Бұл сатып алу әлі төленбеген, сондықтан тіркейтін ештеңе жоқ.",
  },
  refunded: {
    en: "This purchase was refunded, so there is nothing to attach.",
    ru: "За эту покупку уже вернули деньги, поэтому привязывать нечего.",
    zh: "此购买已退款，因此无可绑定的内容。",
    kk: "Бұл сатып алу үшін ақша қайтарылған, сондықтан тіркейтін ештеңе жоқ.",
  },
  "other-account": {
    en: "This purchase is already attached to another account. Sign in with that account to use it.",
    ru: "Эта покупка уже привязана к другому аккаунту. Войдите в него, чтобы ею пользоваться.",
    zh: "此购买已绑定到另一个账户。请登录该账户使用。",
    kk: "Бұл сатып алу басқа аккаунтқа тіркелген. Оны пайдалану үшін сол аккаунтқа кіріңіз.",
  },
};

const refuse = (refusal: PrepaidRefusal, language: Language): PrepaidOutcome => ({
  bound: false,
  refusal,
  reason: refusals[refusal][language],
});

/**
 * Binds a paid anonymous purchase to the account that confirmed it, once (DESIGN §13).
 * It never locks anyone out: a refusal is an answer with its reason, not an error that
 * fails the sign-in. An account without access gets the purchase's plan and card; one
 * that already has access gets the purchased time added to its end, and keeps its card.
 * Runs inside the sign-in's transaction.
 */
export async function bindPrepaid(
  database: Database,
  userId: number,
  prepaidToken: string,
  language: Language,
  now: number,
): Promise<PrepaidOutcome> {
  const payment = await payments.byPrepaidToken(database, prepaidToken);
  if (!payment) return refuse("not-found", language);
  if (payment.user_id !== null)
    return payment.user_id === userId ? { bound: true } : refuse("other-account", language);
  if (payment.status === "refunded") return refuse("refunded", language);
  if (payment.status !== "completed") return refuse("not-paid", language);
  const plan = planFor(payment.currency, payment.tariff_months ?? 1, payment.trial_days ?? 1);
  const purchased = plan.trialDays * dayMs;
  const current = await subscriptions.current(database, userId);
  if (current && hasAccess(current, now)) {
    await subscriptions.extendBy(database, current.id, purchased, now);
    if (!current.card_token)
      await subscriptions.setCard(
        database,
        current.id,
        payment.card_token,
        payment.card_last_four,
        now,
        payment.card_fingerprint,
      );
    await payments.bind(database, payment.id, userId, current.id, now);
    return { bound: true };
  }
  const subscriptionId =
    current?.status === "NOT_ACTIVE"
      ? current.id
      : await subscriptions.insertNotActive(database, userId, plan, now);
  await subscriptions.updatePlan(database, subscriptionId, plan, now);
  // The purchased time runs from the binding: time spent before signing in is not lost.
  await subscriptions.activate(database, subscriptionId, payment.created_at, now + purchased, now);
  await subscriptions.setCard(
    database,
    subscriptionId,
    payment.card_token,
    payment.card_last_four,
    now,
    payment.card_fingerprint,
  );
  await payments.bind(database, payment.id, userId, subscriptionId, now);
  // The anonymous trial starts for this account now: the first message it gets about it.
  await queueTrialStarted(database, payment, subscriptionId, now);
  return { bound: true };
}
