import { payments } from "../../../../db/queries/payments";
import type { AppContext } from "../../../context";
import { logger } from "../../../platform/logger";
import { applyVerifiedPayment } from "./yookassa-verified";

type Services = Pick<AppContext, "database" | "clock" | "config" | "payments">;

/**
 * The payer came back from YooKassa's page (its `return_url`): a hint that the order may be
 * decided, never a proof. The order's payment is asked at YooKassa, and a decided one is
 * applied as its notification would be (the notification may come later, or after a
 * restart), so the cabinet the payer lands on already shows it. Any failure leaves the
 * notification to do it.
 */
export async function settleReturnedOrder(services: Services, invoiceId: string): Promise<void> {
  const shop = services.payments.yookassa;
  const order = await payments.byInvoice(services.database, invoiceId);
  if (!shop || order?.provider !== "yookassa" || order.status !== "pending" || !order.provider_payment_id)
    return;
  try {
    const payment = await shop.client.getPayment(order.provider_payment_id);
    if (payment?.status === "succeeded" || payment?.status === "canceled")
      await applyVerifiedPayment(services, payment);
  } catch (error) {
    logger.warn("a returned YooKassa order could not be looked up", { invoiceId, error: String(error) });
  }
}
