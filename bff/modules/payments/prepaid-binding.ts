import type { Language } from "../../../core/languages";
import type { Database } from "../../../db/database";
import { type PaymentRow, payments } from "../../../db/queries/payments";
import { hasAccess, type SubscriptionRow, subscriptions } from "../../../db/queries/subscriptions";
import { addMonths, dayMs } from "../../platform/calendar";
import type { LocalizedText } from "../../platform/errors";
import { queuePaymentSucceeded, queueTrialStarted } from "../mail/events";
import { nextChargeAmount } from "../subscriptions/next-charge";
import { planFor } from "../subscriptions/pricing";
import { hasHadTrial, markTrialRefusal, releaseTrialCard } from "./trial";

export type PrepaidRefusal =
  | "not-found"
  | "not-paid"
  | "refunded"
  | "other-account"
  | "account-had-trial"
  | "card-had-trial"
  | "trial-returned";
export type PrepaidOutcome =
  | { bound: true }
  | {
      bound: false;
      reason: string;
      refusal: PrepaidRefusal;
      /** The 1-unit payment is sent back (refused-trial-refunds.ts) once the binding's transaction ends. */
      isRefundDue?: boolean;
    };

export const prepaidRefusalText: Record<PrepaidRefusal, LocalizedText> = {
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
  "account-had-trial": {
    en: "This account has already had its trial, so a second 1-rouble start cannot be added to it. The payment goes back to your card; you can order the plan at its price in the cabinet.",
    ru: "На этом аккаунте уже был пробный период, поэтому второй старт за 1 рубль к нему не добавить. Платёж вернётся на вашу карту; тариф по его цене можно оформить в личном кабинете.",
    zh: "此账户已使用过试用期，因此无法再添加一次 1 卢布的开始。款项将退回您的银行卡；您可以在个人中心按套餐价格订购。",
    kk: "Бұл аккаунтта сынақ кезеңі болған, сондықтан оған 1 рубльдік екінші бастауды қосу мүмкін емес. Төлем картаңызға қайтарылады; тарифті өз бағасымен жеке кабинетте рәсімдеуге болады.",
  },
  "card-had-trial": {
    en: "The card this purchase was paid with had already had a trial, so it bought nothing and its payment went back to the card. You can order the plan at its price in the cabinet.",
    ru: "Карта, которой оплачена эта покупка, уже использовалась для пробного периода, поэтому покупка ничего не дала, а платёж вернулся на карту. Тариф по его цене можно оформить в личном кабинете.",
    zh: "支付此购买的银行卡已使用过试用期，因此此购买无效，款项已退回该卡。您可以在个人中心按套餐价格订购。",
    kk: "Бұл сатып алу төленген карта сынақ кезеңіне бұрын пайдаланылған, сондықтан сатып алу ештеңе бермеді, ал төлем картаға қайтарылды. Тарифті өз бағасымен жеке кабинетте рәсімдеуге болады.",
  },
  "trial-returned": {
    en: "This purchase was not attached and its payment went back to the card, so there is nothing to attach.",
    ru: "Эта покупка не была привязана, а платёж за неё вернулся на карту, поэтому привязывать нечего.",
    zh: "此购买未被绑定，款项已退回银行卡，因此无可绑定的内容。",
    kk: "Бұл сатып алу тіркелмеді, ал төлемі картаға қайтарылды, сондықтан тіркейтін ештеңе жоқ.",
  },
};

const refuse = (refusal: PrepaidRefusal, language: Language, isRefundDue = false): PrepaidOutcome => ({
  bound: false,
  refusal,
  reason: prepaidRefusalText[refusal][language],
  ...(isRefundDue ? { isRefundDue } : {}),
});

/** What a purchase bought: the trial's days, or the tariff's months of a full-price purchase. */
export type Bought = { days: number } | { months: number };

/** What binding a purchase would do to an account now; nothing is written. */
export type PrepaidPlan =
  | { action: "already-bound" }
  | { action: "refuse"; refusal: PrepaidRefusal; payment?: PaymentRow }
  | {
      action: "extend" | "start";
      payment: PaymentRow;
      bought: Bought;
      /** The end of access once bound. */
      until: number;
      current: SubscriptionRow | undefined;
    };

const refusalOfMarked: Record<NonNullable<PaymentRow["trial_refusal"]>, PrepaidRefusal> = {
  card: "card-had-trial",
  customer: "trial-returned",
  account: "trial-returned",
};

/**
 * The one rule both the preview (what the dialog says before the click) and the binding
 * follow (DESIGN §13). A 1-unit purchase is a trial: never for an account that had one
 * (a second 1-rouble period would make the trial twice per customer). A full-price
 * purchase (its card had a trial, so it was bought at the plan's price) buys the tariff's
 * months, for any account. The bought period runs from the end of the account's access,
 * or from now.
 */
export async function planPrepaidBinding(
  database: Database,
  userId: number,
  prepaidToken: string,
  now: number,
): Promise<PrepaidPlan> {
  const payment = await payments.byPrepaidToken(database, prepaidToken);
  if (!payment) return { action: "refuse", refusal: "not-found" };
  if (payment.user_id !== null)
    return payment.user_id === userId
      ? { action: "already-bound" }
      : { action: "refuse", refusal: "other-account" };
  if (payment.trial_refusal) return { action: "refuse", refusal: refusalOfMarked[payment.trial_refusal] };
  if (payment.status === "refunded") return { action: "refuse", refusal: "refunded" };
  if (payment.status !== "completed") return { action: "refuse", refusal: "not-paid" };
  const isTrial = payment.is_trial === 1;
  if (isTrial && (await hasHadTrial(database, userId)))
    return { action: "refuse", refusal: "account-had-trial", payment };
  const bought: Bought = isTrial ? { days: payment.trial_days ?? 1 } : { months: payment.tariff_months ?? 1 };
  const current = await subscriptions.current(database, userId);
  const isExtending = current !== undefined && hasAccess(current, now);
  const from = isExtending ? (current.end_date ?? now) : now;
  const until = "days" in bought ? from + bought.days * dayMs : addMonths(from, bought.months);
  return { action: isExtending ? "extend" : "start", payment, bought, until, current };
}

/**
 * Binds a paid anonymous purchase to the account that confirmed it, once (DESIGN §13).
 * It never locks anyone out: a refusal is an answer with its reason, not an error that
 * fails the sign-in. A trial refused because the account had one is marked, gives its
 * card back (no trial was given with it) and is refunded after this transaction. An
 * account without access gets the purchase's plan and card; one that already has access
 * gets the bought period added to its end, and keeps its card. Runs inside the sign-in's
 * transaction.
 */
export async function bindPrepaid(
  database: Database,
  userId: number,
  prepaidToken: string,
  language: Language,
  now: number,
): Promise<PrepaidOutcome> {
  const plan = await planPrepaidBinding(database, userId, prepaidToken, now);
  if (plan.action === "already-bound") return { bound: true };
  if (plan.action === "refuse") {
    if (plan.refusal !== "account-had-trial" || !plan.payment) return refuse(plan.refusal, language);
    await markTrialRefusal(database, plan.payment.id, "account", now);
    await releaseTrialCard(database, plan.payment.id);
    return refuse(plan.refusal, language, true);
  }
  const { payment, current, until } = plan;
  const isTrial = payment.is_trial === 1;
  if (plan.action === "extend" && current) {
    await subscriptions.extendBy(database, current.id, until - (current.end_date ?? now), now);
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
  const bought = planFor(payment.currency, payment.tariff_months ?? 1, payment.trial_days ?? 1);
  const subscriptionId =
    current?.status === "NOT_ACTIVE"
      ? current.id
      : await subscriptions.insertNotActive(database, userId, bought, now);
  await subscriptions.updatePlan(database, subscriptionId, bought, now);
  // The bought time runs from the binding: time spent before signing in is not lost.
  if (isTrial) await subscriptions.activate(database, subscriptionId, payment.created_at, until, now);
  else await subscriptions.activateFirstPeriod(database, subscriptionId, now, until, now);
  await subscriptions.setCard(
    database,
    subscriptionId,
    payment.card_token,
    payment.card_last_four,
    now,
    payment.card_fingerprint,
  );
  await payments.bind(database, payment.id, userId, subscriptionId, now);
  // The purchase is this account's from now: the first message it gets about it.
  if (isTrial) await queueTrialStarted(database, payment, subscriptionId, nextChargeAmount, now);
  else await queuePaymentSucceeded(database, { ...payment, user_id: userId }, subscriptionId, now);
  return { bound: true };
}
