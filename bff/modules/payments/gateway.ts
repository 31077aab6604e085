import { join } from "node:path";
import type { Database } from "../../../db/database";
import { createGatewayClient, type GatewayClient } from "../../adapters/cloudpayments/client";
import { decisionDelay } from "../../adapters/sandbox/answer-delay";
import { createSandboxGateway, type SandboxGateway } from "../../adapters/sandbox/gateway";
import { openLedger } from "../../adapters/sandbox/ledger";
import { createSandboxOrderClient, sharedSandboxUrl } from "../../adapters/sandbox/order-client";
import type { SandboxOrder } from "../../adapters/sandbox/widget-payments";
import type { Clock } from "../../platform/clock";
import type { Config } from "../../platform/config";
import { AppError } from "../../platform/errors";
import { type HttpClient, loopbackOrigin } from "../../platform/http-client";
import { logger } from "../../platform/logger";
import { createProviderHealth, type ProviderHealth } from "./routing/provider-health";
import { createYooKassaShop, type YooKassaShop } from "./yookassa-shop";

export type { YooKassaShop } from "./yookassa-shop";

export type Payments = {
  gateway: GatewayClient;
  /** The embedded sandbox, when this instance is its own bank. */
  sandbox: SandboxGateway | undefined;
  widgetScriptUrl: string;
  /**
   * Tells a sandbox bank of the order its widget is about to be opened for (the real
   * gateway gets the order from its own widget). Throws a 503 when that bank cannot be
   * reached: a widget opened for an order the bank does not know could not be paid.
   */
  registerOrder(order: SandboxOrder): Promise<void>;
  /** YooKassa, the second provider; undefined when no shop is configured (production without its pair). */
  yookassa: YooKassaShop | undefined;
  /** How each provider has been answering this instance: new purchases skip a failing one. */
  health: ProviderHealth;
};

/**
 * The real CloudPayments API when CLOUDPAYMENTS_API_URL is set; otherwise the embedded
 * sandbox, reached through the same HTTP client code at its loopback address. In demo
 * mode the URL may be another instance's sandbox (DESIGN §15): orders are registered
 * there and pages load its widget.
 */
export function createPayments(config: Config, clock: Clock, http: HttpClient, database: Database): Payments {
  return {
    ...createCloudPayments(config, clock, http),
    yookassa: createYooKassaShop(config, clock, http, database),
    health: createProviderHealth(clock),
  };
}

function createCloudPayments(
  config: Config,
  clock: Clock,
  http: HttpClient,
): Omit<Payments, "yookassa" | "health"> {
  const isSandbox = !config.cloudPaymentsApiUrl;
  const apiUrl = config.cloudPaymentsApiUrl ?? `${loopbackOrigin}/api/dev/sandbox/cloudpayments`;
  const publicId = config.cloudPaymentsPublicId ?? "pk_kannt_sandbox";
  const settings = { apiUrl, publicId, apiSecret: config.cloudPaymentsApiSecret };
  const gateway = createGatewayClient(settings, http);
  const sharedSandbox = sharedSandboxUrl(config);
  if (sharedSandbox) {
    const orders = createSandboxOrderClient({ ...settings, apiUrl: sharedSandbox }, http);
    return {
      gateway,
      sandbox: undefined,
      widgetScriptUrl: `${sharedSandbox}/widget.js`,
      async registerOrder(order) {
        try {
          await orders.register(order);
        } catch (error) {
          logger.warn("the shared sandbox bank did not take an order", {
            invoiceId: order.invoice_id,
            bank: sharedSandbox,
            error: error instanceof Error ? error.message : String(error),
          });
          throw new AppError("payment_service_unreachable", {}, { retryAfterSeconds: 30 });
        }
      },
    };
  }
  if (!isSandbox) {
    return {
      gateway,
      sandbox: undefined,
      widgetScriptUrl: "https://widget.cloudpayments.ru/bundles/cloudpayments.js",
      registerOrder: async () => {},
    };
  }
  const ledgerPath =
    config.databasePath === ":memory:" ? ":memory:" : join(config.dataDirectory, "sandbox-gateway.db");
  const sandbox = createSandboxGateway(openLedger(ledgerPath), clock, http, {
    apiSecret: config.cloudPaymentsApiSecret,
    // Another process's shop, when this instance is only its bank (SANDBOX_NOTIFICATION_URL).
    notificationUrl: config.sandboxNotificationUrl ?? `${loopbackOrigin}/api/payments/cloudpayments`,
    bankPageOrigin: config.publicUrl,
    // The payer's bank decides an SBP autopay charge as slowly as the sandbox answers.
    sbpSettlementDelayMs: decisionDelay({
      latencyMs: config.sandboxLatencyMs,
      jitterMs: config.sandboxJitterMs,
    }),
  });
  return {
    gateway,
    sandbox,
    widgetScriptUrl: "/api/dev/sandbox/cloudpayments/widget.js",
    registerOrder: async (order) => sandbox.registerOrder(order),
  };
}
