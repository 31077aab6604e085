import type {
  YooKassaLedgerMethodRow,
  YooKassaLedgerPaymentRow,
  YooKassaLedgerRefundRow,
} from "../../../db/queries/yookassa-ledger";
import type { YooKassaPayment, YooKassaPaymentMethod, YooKassaRefund } from "../yookassa/types";

/** Minor units as YooKassa writes money: "150.00". */
export const moneyText = (minor: number) => (minor / 100).toFixed(2);

const iso = (time: number) => new Date(time).toISOString();

function cardType(number: string): string {
  if (/^220[0-4]/.test(number)) return "Mir";
  if (number.startsWith("4")) return "Visa";
  if (/^(5[1-5]|2[2-7])/.test(number)) return "MasterCard";
  if (/^3[47]/.test(number)) return "AmericanExpress";
  if (number.startsWith("35")) return "JCB";
  if (number.startsWith("62")) return "UnionPay";
  return "Unknown";
}

/** How a payment was paid, as YooKassa describes it: never the whole card number. */
function methodObject(
  payment: YooKassaLedgerPaymentRow,
  method: YooKassaLedgerMethodRow | undefined,
): YooKassaPaymentMethod | undefined {
  if (!method) {
    // Asked for a way of paying, not paid yet: its type is known, its details are not.
    return payment.method_type ? { type: payment.method_type, id: payment.id, saved: false } : undefined;
  }
  if (method.type === "sbp") return { type: "sbp", id: method.id, saved: method.saved === 1, title: "СБП" };
  const number = method.card_number ?? "";
  return {
    type: "bank_card",
    id: method.id,
    saved: method.saved === 1,
    title: `Bank card *${number.slice(-4)}`,
    card: {
      first6: number.slice(0, 6),
      last4: number.slice(-4),
      expiry_month: method.expiry_month ?? "",
      expiry_year: method.expiry_year ?? "",
      card_type: cardType(number),
    },
  };
}

/**
 * A payment as YooKassa answers it: its state now (a repeated POST and a GET both answer
 * this), the confirmation while it waits for the payer, the cancellation's party and reason.
 */
export function paymentObject(
  payment: YooKassaLedgerPaymentRow,
  method: YooKassaLedgerMethodRow | undefined,
  shop: { shopId: string; confirmationUrl: (payment: YooKassaLedgerPaymentRow) => string },
): YooKassaPayment {
  const isPaid = payment.status === "succeeded" || payment.status === "waiting_for_capture";
  const paymentMethod = methodObject(payment, method);
  const awaitsPayer = payment.status === "pending" && payment.confirmation_type !== null;
  return {
    id: payment.id,
    status: payment.status,
    amount: { value: moneyText(payment.amount), currency: payment.currency },
    description: payment.description,
    recipient: { account_id: shop.shopId, gateway_id: `${shop.shopId}1` },
    ...(paymentMethod ? { payment_method: paymentMethod } : {}),
    created_at: iso(payment.created_at),
    ...(payment.captured_at !== null ? { captured_at: iso(payment.captured_at) } : {}),
    ...(awaitsPayer
      ? {
          confirmation:
            payment.confirmation_type === "qr"
              ? { type: "qr" as const, confirmation_data: shop.confirmationUrl(payment) }
              : {
                  type: "redirect" as const,
                  confirmation_url: shop.confirmationUrl(payment),
                  ...(payment.return_url ? { return_url: payment.return_url } : {}),
                },
        }
      : {}),
    test: true,
    paid: isPaid,
    refundable: payment.status === "succeeded" && payment.refunded_amount < payment.amount,
    ...(payment.refunded_amount > 0
      ? { refunded_amount: { value: moneyText(payment.refunded_amount), currency: payment.currency } }
      : {}),
    metadata: payment.metadata ? (JSON.parse(payment.metadata) as Record<string, string>) : {},
    ...(payment.status === "canceled" && payment.cancellation_reason
      ? {
          cancellation_details: {
            party: payment.cancellation_party ?? "yoo_money",
            reason: payment.cancellation_reason,
          },
        }
      : {}),
  };
}

export function refundObject(refund: YooKassaLedgerRefundRow): YooKassaRefund {
  return {
    id: refund.id,
    payment_id: refund.payment_id,
    status: refund.status,
    created_at: iso(refund.created_at),
    amount: { value: moneyText(refund.amount), currency: refund.currency },
    ...(refund.description ? { description: refund.description } : {}),
  };
}
