import type { Language } from "../../../core/languages";
import type { Currency } from "../../../core/money";
import { payments } from "../../../db/queries/payments";
import { subscriptions } from "../../../db/queries/subscriptions";
import { fromMinorUnits } from "../../adapters/cloudpayments/notification";
import type { AppContext } from "../../context";
import { AppError, type LocalizedText } from "../../platform/errors";
import { planFor } from "../subscriptions/pricing";
import { firstOrderTerms } from "./first-order";
import { firstInvoicePrefix } from "./orders";

export type OrderStatus = {
  status: "pending" | "completed" | "declined" | "refunded";
  /** Why the 1-unit trial was not given with this order, if it was not. */
  trialRefused?: "card" | "customer" | "account";
  reason?: string;
  /** The same plan at its price, for the purchase screen's "order at the price" button. */
  fullPrice?: { amount: number; currency: Currency; tariff: number; period: number };
};

const reasons = {
  cardAtCheck: {
    en: "This card has already had a trial, so the 1-unit start is not available with it, and nothing was charged. You can pay the plan's price now, or use a card that has not had a trial.",
    ru: "Эта карта уже использовалась для пробного периода, поэтому старт за 1 рубль с ней недоступен; деньги не списаны. Можно оплатить тариф по его цене сейчас или взять карту, которой пробный период ещё не оплачивали.",
    zh: "此银行卡已使用过试用期，因此无法用它以 1 卢布开始，未扣任何款项。您可以现在按套餐价格付款，或使用未用过试用期的银行卡。",
    kk: "Бұл карта сынақ кезеңіне бұрын пайдаланылған, сондықтан онымен 1 рубльдік бастау қолжетімсіз; ақша алынбады. Тарифті қазір өз бағасымен төлеуге немесе сынақ кезеңі төленбеген картаны пайдалануға болады.",
  },
  cardAtPay: {
    en: "This card had already had a trial, so the 1-unit payment bought nothing and goes back to the card. You can pay the plan's price now, or use a card that has not had a trial.",
    ru: "Эта карта уже использовалась для пробного периода, поэтому платёж 1 рубль ничего не дал и возвращается на карту. Можно оплатить тариф по его цене сейчас или взять карту, которой пробный период ещё не оплачивали.",
    zh: "此银行卡已使用过试用期，因此这笔 1 卢布的付款无效，将退回该卡。您可以现在按套餐价格付款，或使用未用过试用期的银行卡。",
    kk: "Бұл карта сынақ кезеңіне бұрын пайдаланылған, сондықтан 1 рубльдік төлем ештеңе бермеді және картаға қайтарылады. Тарифті қазір өз бағасымен төлеуге немесе сынақ кезеңі төленбеген картаны пайдалануға болады.",
  },
  customer: {
    en: "You have already had your trial, so this 1-unit payment bought nothing and goes back to the card. You can pay the plan's price now.",
    ru: "Вы уже воспользовались пробным периодом, поэтому этот платёж 1 рубль ничего не дал и возвращается на карту. Тариф можно оплатить по его цене сейчас.",
    zh: "您已使用过试用期，因此这笔 1 卢布的付款无效，将退回银行卡。您可以现在按套餐价格付款。",
    kk: "Сіз сынақ кезеңін пайдаланып қойдыңыз, сондықтан бұл 1 рубльдік төлем ештеңе бермеді және картаға қайтарылады. Тарифті қазір өз бағасымен төлеуге болады.",
  },
} satisfies Record<string, LocalizedText>;

const notFound: LocalizedText = {
  en: "No order with this invoice id.",
  ru: "Заказа с таким номером нет.",
  zh: "没有此编号的订单。",
  kk: "Мұндай нөмірлі тапсырыс жоқ.",
};

/**
 * What became of a first payment's order, for the purchase screen after the widget
 * closes: the widget only says the payment failed (Check's code 13 reads as any decline)
 * or went through, not that the trial was refused, so the screen asks here (DESIGN §13).
 * The invoice id is an unguessable token only its buyer's page holds, so anonymous
 * purchases can ask too; the answer names no one.
 */
export async function orderStatusOf(
  context: AppContext,
  invoiceId: string,
  language: Language,
): Promise<OrderStatus> {
  const { database, clock } = context;
  const payment = invoiceId.startsWith(firstInvoicePrefix)
    ? await payments.byInvoice(database, invoiceId)
    : undefined;
  if (!payment) throw new AppError("NOT_FOUND", notFound);
  const refusal = payment.is_trial ? payment.trial_refusal : null;
  if (!refusal) return { status: payment.status };
  const wasCharged = payment.status === "completed" || payment.status === "refunded";
  const text = refusal === "card" ? (wasCharged ? reasons.cardAtPay : reasons.cardAtCheck) : reasons.customer;
  const tariff = payment.tariff_months ?? 1;
  const period = payment.trial_days ?? 1;
  const plan = planFor(payment.currency, tariff, period);
  let amount = plan.periodPrice;
  if (payment.user_id !== null) {
    // A customer's price is after their discounts, as their order at the price will be.
    const current = await subscriptions.current(database, payment.user_id);
    const terms = await firstOrderTerms(
      database,
      payment.user_id,
      plan,
      current,
      language,
      clock.now(),
      true,
    );
    amount = terms.amountNow;
  }
  return {
    status: payment.status,
    trialRefused: refusal,
    reason: text[language],
    fullPrice: { amount: Number(fromMinorUnits(amount)), currency: payment.currency, tariff, period },
  };
}
