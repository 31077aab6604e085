import type { PaymentProvider } from "../../../core/payment-methods";
import type { Api } from "../api";
import type { SbpAccount } from "../sbp";

/** The first order's answer as the shop screen gets it (POST /api/shop/order). */
export type FirstOrder = {
  invoiceId: string;
  accountId: string;
  amount: number;
  provider?: PaymentProvider;
  confirmationUrl?: string;
  sbp?: { qrUrl: string };
};

export type Card = { number: string; expiry: string; reused?: boolean };

/**
 * What the payer does with a first order, wherever the server sent it: the CloudPayments
 * widget with a card, YooKassa's checkout page with a card, or the bank app paying the SBP
 * QR of either (autopay allowed, the account's later charges going as `account` says).
 * Answers whether it was paid, the code Check refused it with (CloudPayments), and whether
 * the provider was down (503): the payer tries again later.
 */
export async function payFirstOrder(
  api: Api,
  order: FirstOrder,
  payer: { card: Card; account: SbpAccount },
): Promise<{ isPaid: boolean; isProviderDown: boolean; checkCode?: number; answer: unknown }> {
  const answered = async (call: Promise<{ status: number; data: unknown; error: unknown }>) => {
    const answer = await call;
    const body = (answer.data ?? (answer.error as { value?: unknown } | null)?.value) as
      | { success?: boolean; checkCode?: number }
      | undefined;
    return {
      isPaid: answer.status === 200 && body?.success === true,
      isProviderDown: answer.status === 503,
      ...(body?.checkCode === undefined ? {} : { checkCode: body.checkCode }),
      answer: body,
    };
  };
  if (order.sbp) {
    const qr = new URL(order.sbp.qrUrl).searchParams.get("qr") ?? "";
    return answered(api.dev.sandbox.sbp.pay.post({ qr, outcome: "pay", account: payer.account }));
  }
  if (order.confirmationUrl) {
    const paymentId = new URL(order.confirmationUrl).searchParams.get("orderId") ?? "";
    return answered(
      api.dev.sandbox.yookassa.checkout.pay.post({
        paymentId,
        cardNumber: payer.card.number,
        expiry: payer.card.expiry,
      }),
    );
  }
  return answered(
    api.dev.sandbox.pay.post({
      invoiceId: order.invoiceId,
      cardNumber: payer.card.number,
      expiry: payer.card.expiry,
    }),
  );
}
