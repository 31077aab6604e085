import { payments } from "../../../../db/queries/payments";
import { parseNotification } from "../../../adapters/cloudpayments/notification";
import { isSignedByGateway } from "../../../adapters/cloudpayments/signature";
import type { AppContext } from "../../../context";
import { AppError } from "../../../platform/errors";
import { firstInvoicePrefix } from "../orders/orders";
import { refundDuplicatePaymentsNow } from "../refunds/duplicate-refunds";
import { refundRefusedTrialsNow } from "../refunds/refused-trial-refunds";
import { fitNotification } from "./fit-notification";
import { answerCheck, applyNotification } from "./webhooks";

export type NotificationKind = "check" | "pay" | "fail" | "refund";

/**
 * One notification of the gateway, as the bytes it sent: checked, parsed and applied;
 * the answer is the gateway's protocol code (0 is "accepted"; any other code is a
 * refusal it will show the payer). Each outcome is counted by kind.
 */
export async function takeNotification(
  services: Pick<AppContext, "database" | "clock" | "config" | "payments" | "metrics">,
  kind: NotificationKind,
  raw: Uint8Array,
  headers: Headers,
) {
  const counted = (result: string) => services.metrics.notifications.inc({ kind, result });
  // The signature is checked over the raw bytes before anything is parsed.
  if (!isSignedByGateway(services.config.cloudPaymentsApiSecret, raw, headers)) {
    counted("refused");
    throw new AppError("notification_unsigned");
  }
  const notification = fitNotification(parseNotification(raw, headers.get("content-type")), counted);
  const now = services.clock.now();
  const applied =
    kind === "check"
      ? { code: await answerCheck(services.database, notification, now) }
      : await applyNotification(services.database, kind, notification, now);
  const { code } = applied;
  // A second payment of one order (an SBP QR paid twice) goes back at once (DESIGN §6).
  if (applied.isDuplicate) await refundDuplicatePaymentsNow(services);
  // A first payment refused its trial at Pay goes back to the card at once (DESIGN §13).
  if (kind === "pay" && notification.InvoiceId.startsWith(firstInvoicePrefix)) {
    const paid = await payments.byInvoice(services.database, notification.InvoiceId);
    if (paid?.trial_refusal && paid.status === "completed") await refundRefusedTrialsNow(services);
  }
  counted(code === 0 ? "accepted" : `code_${code}`);
  return { code };
}
