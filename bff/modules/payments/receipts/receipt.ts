import { toCurrencyUnits } from "../../../../core/money";
import type { Database } from "../../../../db/database";
import type { PaymentRow } from "../../../../db/queries/payments";
import { subscriptions } from "../../../../db/queries/subscriptions";
import { users } from "../../../../db/queries/users";
import type { CustomerReceipt } from "../../../adapters/cloudpayments/receipt";
import type { AppContext } from "../../../context";
import type { ReceiptSettings } from "../../../platform/fiscal-settings";

/** What a receipt needs to know of a payment: what it bought and for how much. */
export type ReceiptSubject = Pick<
  PaymentRow,
  "kind" | "amount" | "tariff_months" | "trial_days" | "extra_devices" | "is_trial"
>;

/** Признак способа расчёта 4, «полный расчёт»: the service is paid in full when charged. */
const fullPayment = 4;
/** Признак предмета расчёта 4, «услуга». */
const service = 4;

/** Russian plural: 1 месяц, 2 месяца, 5 месяцев. */
function plural(count: number, one: string, few: string, many: string): string {
  const lastTwo = count % 100;
  const last = count % 10;
  if (lastTwo >= 11 && lastTwo <= 14) return many;
  if (last === 1) return one;
  if (last >= 2 && last <= 4) return few;
  return many;
}

const months = (count: number) => `${count} ${plural(count, "месяц", "месяца", "месяцев")}`;

/** The receipt line says, in Russian as the law wants, what was bought. */
export function receiptLabel(payment: ReceiptSubject): string {
  if (payment.kind === "device") return "Kannt: дополнительное устройство до конца оплаченного периода";
  const tariff = payment.tariff_months
    ? `Подписка Kannt на ${months(payment.tariff_months)}`
    : "Подписка Kannt";
  // A first payment without a trial (the customer or the card had one) bought the tariff itself.
  if (payment.kind === "first" && payment.is_trial && payment.trial_days) {
    const days = payment.trial_days;
    return `${tariff}: пробный период ${days} ${plural(days, "день", "дня", "дней")}`;
  }
  const devices = payment.extra_devices ?? 0;
  return devices > 0
    ? `${tariff}, включая ${devices} ${plural(devices, "дополнительное устройство", "дополнительных устройства", "дополнительных устройств")}`
    : tariff;
}

/**
 * The 54-FZ receipt of a payment (DESIGN §13): one line for what was bought, paid in
 * full by card. `amount` is what this operation moves: the payment's amount for a
 * charge, what goes back for a refund.
 */
export function buildReceipt(
  payment: ReceiptSubject,
  email: string | null,
  settings: ReceiptSettings,
  amount = payment.amount,
): CustomerReceipt {
  // Whole minor units first: the gateway takes two decimals at most.
  const units = toCurrencyUnits(Math.round(amount));
  return {
    Items: [
      {
        label: receiptLabel(payment),
        price: units,
        quantity: 1,
        amount: units,
        vat: settings.vat,
        method: fullPayment,
        object: service,
      },
    ],
    taxationSystem: settings.taxationSystem,
    ...(email ? { email } : {}),
    amounts: { electronic: units },
  };
}

/**
 * Renewal rows record what their period buys; rows written before they did are named
 * after the subscription they renew.
 */
async function subjectOf(database: Database, payment: PaymentRow): Promise<ReceiptSubject> {
  if (payment.kind !== "renewal" || payment.tariff_months !== null || payment.subscription_id === null)
    return payment;
  const subscription = await subscriptions.byId(database, payment.subscription_id);
  return subscription
    ? { ...payment, tariff_months: subscription.tariff_months, extra_devices: subscription.extra_devices }
    : payment;
}

/** The receipt of a payment, sent to the e-mail of the account it belongs to. */
export async function receiptOf(
  context: Pick<AppContext, "database" | "config">,
  payment: PaymentRow,
  amount = payment.amount,
): Promise<CustomerReceipt> {
  const email =
    payment.user_id === null ? null : ((await users.byId(context.database, payment.user_id))?.email ?? null);
  return buildReceipt(await subjectOf(context.database, payment), email, context.config.receipts, amount);
}
