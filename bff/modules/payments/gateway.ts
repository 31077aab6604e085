import { join } from "node:path";
import { createGatewayClient, type GatewayClient } from "../../adapters/cloudpayments/client";
import { createSandboxGateway, type SandboxGateway } from "../../adapters/sandbox/gateway";
import { openLedger } from "../../adapters/sandbox/ledger";
import type { Clock } from "../../platform/clock";
import type { Config } from "../../platform/config";
import { type HttpClient, loopbackOrigin } from "../../platform/http-client";

export type Payments = {
  gateway: GatewayClient;
  sandbox: SandboxGateway | undefined;
  widgetScriptUrl: string;
};

/**
 * The real CloudPayments API when CLOUDPAYMENTS_API_URL is set; otherwise the embedded
 * sandbox, reached through the same HTTP client code at its loopback address.
 */
export function createPayments(config: Config, clock: Clock, http: HttpClient): Payments {
  const isSandbox = !config.cloudPaymentsApiUrl;
  const apiUrl = config.cloudPaymentsApiUrl ?? `${loopbackOrigin}/api/dev/sandbox/cloudpayments`;
  const publicId = config.cloudPaymentsPublicId ?? "pk_kannt_sandbox";
  const gateway = createGatewayClient({ apiUrl, publicId, apiSecret: config.cloudPaymentsApiSecret }, http);
  if (!isSandbox) {
    return {
      gateway,
      sandbox: undefined,
      widgetScriptUrl: "https://widget.cloudpayments.ru/bundles/cloudpayments.js",
    };
  }
  const ledgerPath =
    config.databasePath === ":memory:" ? ":memory:" : join(config.dataDirectory, "sandbox-gateway.db");
  const sandbox = createSandboxGateway(openLedger(ledgerPath), clock, http, {
    apiSecret: config.cloudPaymentsApiSecret,
    notificationUrl: `${loopbackOrigin}/api/payments/cloudpayments`,
  });
  return { gateway, sandbox, widgetScriptUrl: "/api/dev/sandbox/cloudpayments/widget.js" };
}
