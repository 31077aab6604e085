import type { Database } from "../../../db/database";
import { subscriptions } from "../../../db/queries/subscriptions";
import { AppError, type LocalizedText } from "../../platform/errors";
import { queueSubscriptionCanceled } from "../mail/events";

const refusals = {
  nothingToCancel: {
    en: "There is no active subscription to cancel.",
    ru: "Нет активной подписки, которую можно отменить.",
    zh: "没有可取消的有效订阅。",
    kk: "Тоқтататын белсенді жазылым жоқ.",
  },
  noCardToRenewWith: {
    en: "There is no saved card to renew with. Your access stays open until the end of the paid period; after that, subscribe again and pay with a card.",
    ru: "Нет сохранённой карты для продления. Доступ сохранится до конца оплаченного периода, а после этого оформите подписку заново и оплатите её картой.",
    zh: "没有可用于续订的已保存银行卡。您的访问权限将保留到已付费周期结束；之后请重新订阅并用卡支付。",
    kk: "Ұзартуға сақталған карта жоқ. Қолжетімділік төленген кезеңнің соңына дейін сақталады; одан кейін қайта жазылып, картамен төлеңіз.",
  },
  cannotResume: {
    en: "Only a cancelled subscription that is still running can be resumed; buy a new one instead.",
    ru: "Возобновить можно только отменённую подписку, срок которой ещё не закончился. Оформите новую подписку.",
    zh: "只有已取消但仍在有效期内的订阅才能恢复，请购买新的订阅。",
    kk: "Тек тоқтатылған, бірақ мерзімі әлі бітпеген жазылымды қайта қосуға болады. Жаңа жазылым рәсімдеңіз.",
  },
} satisfies Record<string, LocalizedText>;

const view = async (database: Database, userId: number) => {
  const subscription = await subscriptions.current(database, userId);
  return {
    success: true as const,
    subscriptionStatus: subscription?.status ?? "NOT_ACTIVE",
    expirationDate: subscription?.end_date ? new Date(subscription.end_date).toISOString() : null,
  };
};

/** Turns auto-renewal off; access stays until the end of the paid period. The customer is told by mail. */
export async function cancelSubscription(database: Database, userId: number, now: number) {
  await database.transaction(async () => {
    const current = await subscriptions.current(database, userId);
    if (!current || (await subscriptions.cancel(database, current.id, now)).changes === 0) {
      throw new AppError("CONFLICT", refusals.nothingToCancel);
    }
    const cancelled = await subscriptions.byId(database, current.id);
    if (cancelled) await queueSubscriptionCanceled(database, cancelled, now);
  });
  return view(database, userId);
}

/** Turns auto-renewal back on for a cancelled subscription that is still running; charges nothing now. */
export async function resumeSubscription(database: Database, userId: number, now: number) {
  // One transaction: the card check and the resume must see the same row, or a card
  // removed between them would leave a subscription renewing with nothing to charge.
  await database.transaction(async () => {
    const current = await subscriptions.current(database, userId);
    // Without a saved card a resumed subscription could only fail at its renewal: coming
    // back after removing the card means paying with a card again (DESIGN §13(b)).
    if (current?.status === "CANCELED" && !current.card_token && current.card_removed_at) {
      throw new AppError("CONFLICT", refusals.noCardToRenewWith);
    }
    if (!current || (await subscriptions.resume(database, current.id, now)).changes === 0) {
      throw new AppError("CONFLICT", refusals.cannotResume);
    }
  });
  return view(database, userId);
}
