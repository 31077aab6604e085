import type { Database } from "bun:sqlite";
import { yooKassaLedgerDeliveries } from "../../../db/queries/yookassa-ledger";
import type { Clock } from "../../platform/clock";
import type { HttpClient } from "../../platform/http-client";
import { type DeliveryPolicy, defaultDeliveryPolicy } from "../sandbox/notifier";

export type YooKassaEvent = "payment.succeeded" | "payment.canceled" | "refund.succeeded";
export type NotifyShop = (event: YooKassaEvent, object: { id: string }) => Promise<void>;

/** The shop's answer to one send: its status, or null with why when none came in time. */
async function send(http: HttpClient, request: Request, timeoutMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const answer = (async () => {
    const response = await http.fetch(request);
    await response.arrayBuffer();
    return { status: response.status as number | null, error: null as string | null };
  })();
  try {
    return await Promise.race([answer, timeout]);
  } catch (error) {
    return { status: null, error: String(error).slice(0, 300) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * YooKassa's notifications: `{type: "notification", event, object}` as JSON, unsigned,
 * POSTed to the shop's one URL. Anything but a 200 is a failed delivery, sent again (the
 * real one keeps trying for 24 hours; the sandbox's caller waits, so it sends as often
 * and as far apart as the CloudPayments sandbox does). Each send is kept in the ledger.
 */
export function createYooKassaNotifier(
  http: HttpClient,
  ledger: Database,
  clock: Clock,
  settings: { notificationUrl: string; delivery?: DeliveryPolicy },
): NotifyShop {
  const policy = settings.delivery ?? defaultDeliveryPolicy;
  return async (event, object) => {
    const body = JSON.stringify({ type: "notification", event, object });
    for (let attempt = 1; attempt <= policy.attempts; attempt++) {
      if (attempt > 1) await Bun.sleep(policy.firstDelayMs * 2 ** (attempt - 2));
      const answer = await send(
        http,
        new Request(settings.notificationUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
          signal: AbortSignal.timeout(policy.timeoutMs),
        }),
        policy.timeoutMs,
      );
      yooKassaLedgerDeliveries.insert(ledger, {
        event,
        object_id: object.id,
        attempt,
        ...answer,
        created_at: clock.now(),
      });
      if (answer.status === 200) return;
    }
  };
}
