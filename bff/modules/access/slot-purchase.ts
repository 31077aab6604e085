import { defaultPrices } from "../../../core/prices";
import { payments } from "../../../db/queries/payments";
import { subscriptions } from "../../../db/queries/subscriptions";
import type { UserRow } from "../../../db/queries/users";
import { hardDeclineCodes } from "../../adapters/cloudpayments/notification";
import type { AppContext } from "../../context";
import { dayMs } from "../../platform/calendar";
import { AppError, type LocalizedText } from "../../platform/errors";
import { logger } from "../../platform/logger";
import { accountIdOf } from "../payments/orders";
import { buildReceipt } from "../payments/receipt";
import { chargeSavedCard, settleCharge } from "../payments/saved-card";
import { billingTurn, renoticeRaisedCharge } from "../subscriptions/renewal-notices";
import { devicesOf } from "./devices-part";

const refusals = {
  notActive: {
    en: "Device slots can be added to an active subscription only.",
    ru: "Места для устройств можно добавить только к активной подписке.",
    zh: "只有有效的订阅才能增加设备名额。",
    kk: "Құрылғы орындарын тек белсенді жазылымға қосуға болады.",
  },
  noCard: {
    en: "There is no saved card to charge; contact support.",
    ru: "Нет сохранённой карты для оплаты. Обратитесь в поддержку.",
    zh: "没有可扣款的已保存银行卡，请联系客服。",
    kk: "Төлем алатын сақталған карта жоқ; қолдау қызметіне хабарласыңыз.",
  },
  renewalInFlight: {
    en: "Your subscription's renewal payment is being processed right now. Add the device slot in a minute.",
    ru: "Прямо сейчас проходит оплата продления вашей подписки. Добавьте место для устройства через минуту.",
    zh: "您的订阅续费正在处理中，请一分钟后再增加设备名额。",
    kk: "Дәл қазір жазылымыңызды ұзарту төлемі өңделіп жатыр. Құрылғы орнын бір минуттан кейін қосыңыз.",
  },
} satisfies Record<string, LocalizedText>;

/** The gateway's reason code for "not enough money on the card". */
const insufficientFundsCode = 5051;

/** The bank's refusal in words a customer understands (the gateway's own reason is a code). */
const declines = {
  insufficientFunds: {
    en: "The card was declined: there is not enough money on it. No slot was added.",
    ru: "Карта отклонена: на ней недостаточно средств. Место для устройства не добавлено.",
    zh: "银行卡被拒绝：卡内余额不足。未增加设备名额。",
    kk: "Карта қабылданбады: картада қаражат жеткіліксіз. Құрылғы орны қосылмады.",
  },
  cardUnusable: {
    en: "The card was declined: the bank says it can no longer be used. No slot was added.",
    ru: "Карта отклонена: банк сообщил, что ею больше нельзя пользоваться. Место для устройства не добавлено.",
    zh: "银行卡被拒绝：银行表示该卡已无法使用。未增加设备名额。",
    kk: "Карта қабылданбады: банк бұл картаны енді пайдалануға болмайтынын хабарлады. Құрылғы орны қосылмады.",
  },
  other: {
    en: "The bank declined the payment with your card. No slot was added.",
    ru: "Банк отклонил оплату вашей картой. Место для устройства не добавлено.",
    zh: "银行拒绝了您这张卡的付款。未增加设备名额。",
    kk: "Банк картаңызбен төлемді қабылдамады. Құрылғы орны қосылмады.",
  },
} satisfies Record<string, LocalizedText>;

function declined(reasonCode: number | null | undefined): LocalizedText {
  if (reasonCode === insufficientFundsCode) return declines.insufficientFunds;
  if (reasonCode != null && hardDeclineCodes.has(reasonCode)) return declines.cardUnusable;
  return declines.other;
}

/**
 * What one more device slot costs for the rest of the paid period: the monthly slot
 * price per day (÷ 30) for the days left, in whole currency units, at least one.
 * Renewals then include the slot at its full monthly price.
 */
export function proRataDevicePrice(monthlyPrice: number, periodEnd: number, now: number): number {
  const daysLeft = Math.max(0, (periodEnd - now) / dayMs);
  return Math.max(100, Math.round((monthlyPrice * daysLeft) / 30 / 100) * 100);
}

/**
 * The pending charge for one more slot, committed before the gateway call like every
 * charge (DESIGN §6). In the billing turn: a renewal claimed before it is seen in flight
 * (its amount could not include the slot, so the slot waits for it), and a claim after it
 * sees this purchase and leaves the renewal for the next pass (subscriptions.due).
 */
async function openSlotPurchase(context: AppContext, user: UserRow, ip: string | null, now: number) {
  const { database } = context;
  return database.inTurn(billingTurn, async () => {
    const subscription = await subscriptions.current(database, user.id);
    if (subscription?.status !== "ACTIVE" || !subscription.end_date) {
      throw new AppError("CONFLICT", refusals.notActive);
    }
    const cardToken = subscription.card_token;
    if (!cardToken) throw new AppError("CONFLICT", refusals.noCard);
    if (await payments.inFlight(database, subscription.id, "renewal", 0))
      throw new AppError("CONFLICT", refusals.renewalInFlight);
    const amount = proRataDevicePrice(
      defaultPrices[subscription.currency].extraDevicePerMonth,
      subscription.end_date,
      now,
    );
    const payment = await payments.insert(
      database,
      {
        userId: user.id,
        subscriptionId: subscription.id,
        kind: "device",
        invoiceId: `device-${subscription.id}-${subscription.extra_devices + 1}-${now}`,
        accountId: accountIdOf(user.id),
        amount,
        currency: subscription.currency,
        description: "Kannt: one more device until the end of the paid period",
        // The customer asked for it: their address is kept with it, as a first payment's is.
        ipAddress: ip,
      },
      now,
    );
    return { payment, cardToken, subscriptionId: subscription.id };
  });
}

/**
 * Buys an extra device slot with the saved card, now (spec: hold-to-add-device): pro rata
 * for the rest of the period, and in every renewal from the next one on. Bought after the
 * next renewal's notice, the slot gets a new notice stating the new amount, and that
 * renewal waits 24 hours after it (DESIGN §13(a), renoticeRaisedCharge).
 */
export async function addDeviceSlot(context: AppContext, user: UserRow, ip: string | null) {
  const { database, clock } = context;
  const { payment, cardToken, subscriptionId } = await openSlotPurchase(context, user, ip, clock.now());
  const { amount } = payment;
  const answer = await chargeSavedCard(
    context.payments.gateway,
    payment,
    cardToken,
    buildReceipt(payment, user.email, context.config.receipts),
  );
  const settledAt = clock.now();
  // The slot and its new notice together, in the billing turn: no claim between them.
  const isPaid = await database.inTurn(billingTurn, async () => {
    const paid = await settleCharge(database, payment, answer, settledAt);
    if (paid) await renoticeRaisedCharge(context, subscriptionId, settledAt);
    return paid;
  });
  if (!isPaid) {
    logger.info("extra device slot declined", {
      userId: user.id,
      reasonCode: answer.Model?.ReasonCode,
      reason: answer.Model?.Reason ?? answer.Message,
    });
    throw new AppError("CONFLICT", declined(answer.Model?.ReasonCode));
  }
  return {
    success: true as const,
    charged: amount / 100,
    ...(await devicesOf(database, user.id, settledAt)),
  };
}
