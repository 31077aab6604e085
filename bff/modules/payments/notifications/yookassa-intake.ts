import type { YooKassaPayment } from "../../../adapters/yookassa/types";
import type { AppContext } from "../../../context";
import { AppError } from "../../../platform/errors";
import { logger } from "../../../platform/logger";
import { fitNotification } from "./fit-notification";
import { isActedOn, readYooKassaNotification } from "./yookassa-notification";
import { applyVerifiedPayment, applyVerifiedRefund } from "./yookassa-verified";

/**
 * `applied`: YooKassa's API confirmed the event and it is applied (or was before).
 * `ignored`: an event the product does not act on, or an object that is not ours.
 * `unverified`: YooKassa's API does not know the object, or says otherwise: nothing changed.
 */
export type YooKassaIntakeResult = "applied" | "ignored" | "unverified";

type IntakeServices = Pick<AppContext, "database" | "clock" | "config" | "payments" | "metrics">;

/** The status YooKassa's API must show for the event to be true. */
const statusOfEvent = { "payment.succeeded": "succeeded", "payment.canceled": "canceled" } as const;

/**
 * A look-up at YooKassa for a notification. YooKassa unreachable (or refusing our key) is
 * a 503: the notification is answered as not taken, and YooKassa sends it again later
 * (it does for 24 hours), by when the look-up may work.
 */
async function lookUp<T>(call: () => Promise<T>, objectId: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    logger.warn("a YooKassa notification could not be checked; YooKassa will send it again", {
      objectId,
      error: error instanceof Error ? error.message : String(error),
    });
    throw new AppError("payment_service_unreachable", {}, { retryAfterSeconds: 60 });
  }
}

/**
 * One YooKassa notification (DESIGN §6), as the bytes it sent. YooKassa does not sign its
 * notifications, so one says only which object to look up: the product acts only once
 * `GET /v3/payments/{id}` (or `/v3/refunds/{id}`) from its own side agrees with the event,
 * and then on what that answer says. A forged or stale one changes nothing and is answered
 * 200, which ends YooKassa's redelivery of it: asking again would get the same answer. A
 * body that is no notification is refused (400), as it cannot be YooKassa's.
 */
export async function takeYooKassaNotification(
  services: IntakeServices,
  raw: Uint8Array,
): Promise<{ result: YooKassaIntakeResult }> {
  const shop = services.payments.yookassa;
  if (!shop) throw new AppError("not_found");
  const read = readYooKassaNotification(raw);
  const counted = (result: string) =>
    services.metrics.notifications.inc({ kind: `yookassa:${read?.event ?? "unreadable"}`, result });
  const notification = fitNotification(read, counted);
  const { event } = notification;
  const id = notification.object.id;
  const answer = (result: YooKassaIntakeResult) => {
    counted(result);
    if (result === "unverified")
      logger.warn("a YooKassa notification its API does not confirm; nothing changed", {
        event,
        objectId: id,
      });
    return { result };
  };
  if (!isActedOn(event)) return answer("ignored");
  if (event === "refund.succeeded") {
    const refund = await lookUp(() => shop.client.getRefund(id), id);
    if (refund?.status !== "succeeded") return answer("unverified");
    const payment = await lookUp(() => shop.client.getPayment(refund.payment_id), refund.payment_id);
    if (payment?.status !== "succeeded") return answer("unverified");
    return answer((await applyVerifiedRefund(services, refund, payment)) ? "applied" : "ignored");
  }
  const payment: YooKassaPayment | null = await lookUp(() => shop.client.getPayment(id), id);
  if (payment?.status !== statusOfEvent[event]) return answer("unverified");
  return answer((await applyVerifiedPayment(services, payment)) ? "applied" : "ignored");
}
