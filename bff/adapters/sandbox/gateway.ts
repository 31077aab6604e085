import type { Database } from "bun:sqlite";
import type { Clock } from "../../platform/clock";
import type { HttpClient } from "../../platform/http-client";
import { createCardBook } from "./card-book";
import { createDeliveryLog } from "./delivery-log";
import { createGatewayApi } from "./gateway-api";
import { createNotifier, type DeliveryPolicy } from "./notifier";
import { createTransactionBook } from "./transaction-book";
import { createWidgetPayments } from "./widget-payments";

/** `delivery`: how often and how far apart a notification is sent again (notifier.ts). */
export type SandboxSettings = { apiSecret: string; notificationUrl: string; delivery?: DeliveryPolicy };

/**
 * The embedded sandbox gateway: a loopback bank with the gateway's API, test cards and
 * signed notifications (DESIGN §6). It knows nothing of our database.
 */
export function createSandboxGateway(
  ledger: Database,
  clock: Clock,
  http: HttpClient,
  settings: SandboxSettings,
) {
  const deliveries = createDeliveryLog(ledger, clock);
  const bank = {
    record: createTransactionBook(ledger, clock),
    notify: createNotifier(http, settings, deliveries),
    cards: createCardBook(ledger, clock),
    deliveries,
  };
  const widget = createWidgetPayments(ledger, clock, bank);
  return {
    ledger,
    ...widget,
    ...createGatewayApi(ledger, { ...bank, registerOrder: widget.registerOrder }),
  };
}

export type SandboxGateway = ReturnType<typeof createSandboxGateway>;
