import type { Database } from "bun:sqlite";
import type { Clock } from "../../platform/clock";
import type { HttpClient } from "../../platform/http-client";
import { createSandboxOutage } from "../sandbox-outage";
import { createCardBook } from "./card-book";
import { createDeliveryLog } from "./delivery-log";
import { createGatewayApi } from "./gateway-api";
import { createNotifier, type DeliveryPolicy } from "./notifier";
import { createSbpCharges } from "./sbp-charges";
import { createSbpPayments } from "./sbp-payments";
import { createSbpQrs } from "./sbp-qrs";
import { createSbpRefunds } from "./sbp-refunds";
import { createSbpTokenBook } from "./sbp-tokens";
import { createSettlements } from "./settlements";
import { createTransactionBook } from "./transaction-book";
import { createWidgetPayments } from "./widget-payments";

/**
 * `delivery`: how often and how far apart a notification is sent again (notifier.ts).
 * `bankPageOrigin`: where the payer's bank page (/dev-sbp) is served, the origin of every
 * SBP QR's link (the shop's public URL; http://localhost:3000, the server's default, when
 * unset). `sbpSettlementDelayMs`: how long after its answer an SBP autopay charge is
 * settled (0: at the next turn of the event loop; a function: drawn for each charge).
 */
export type SandboxSettings = {
  apiSecret: string;
  notificationUrl: string;
  delivery?: DeliveryPolicy;
  bankPageOrigin?: string;
  sbpSettlementDelayMs?: number | (() => number);
};

/**
 * The embedded sandbox gateway: a loopback bank with the gateway's API, test cards, SBP
 * QRs and autopay, and signed notifications (DESIGN §6). It knows nothing of our database.
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
  const settlements = createSettlements(settings.sbpSettlementDelayMs);
  const sbpTokens = createSbpTokenBook(ledger, clock);
  const sbpQrs = createSbpQrs(ledger, clock, {
    bankPageOrigin: (settings.bankPageOrigin ?? "http://localhost:3000").replace(/\/+$/, ""),
  });
  const sbpCharges = createSbpCharges(ledger, { ...bank, settlements, tokens: sbpTokens });
  const sbpRefunds = createSbpRefunds(ledger, { notify: bank.notify, settlements });
  sbpCharges.resumePending();
  sbpRefunds.resumePending();
  return {
    ledger,
    /** Down on demand (POST /api/dev/sandbox/outage): its API and its payer's pages answer 503. */
    outage: createSandboxOutage(),
    ...widget,
    ...createGatewayApi(ledger, {
      ...bank,
      registerOrder: widget.registerOrder,
      sbpTokens,
      sbpCharges,
      sbpRefunds,
    }),
    sbp: {
      /** POST /payments/qr/sbp/link. */
      openQr: sbpQrs.open,
      /** POST /payments/qr/sbp/image. */
      openQrWithImage: sbpQrs.openWithImage,
      /** The QR as the bank page shows it; undefined when there is none. */
      describeQr(id: string) {
        const qr = sbpQrs.byId(id);
        return qr && sbpQrs.describe(qr);
      },
      ...createSbpPayments(ledger, clock, { ...bank, qrs: sbpQrs, tokens: sbpTokens }),
      /**
       * Resolves once every SBP charge answered Pending so far is settled, and every SBP
       * refund accepted is done, with its notification sent.
       */
      settled: settlements.settled,
      /** The payers' banks decide nothing until the returned function is called (tests). */
      holdDecisions: settlements.hold,
      get pendingSettlements() {
        return settlements.pendingCount;
      },
    },
  };
}

export type SandboxGateway = ReturnType<typeof createSandboxGateway>;
