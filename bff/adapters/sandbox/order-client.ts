import { toCurrencyUnits } from "../../../core/money";
import type { Config } from "../../platform/config";
import type { HttpClient } from "../../platform/http-client";
import { type GatewaySettings, gatewayCaller } from "../cloudpayments/client";
import type { SandboxOrder } from "./widget-payments";

/** Where a demo instance's sandbox answers the gateway's server API. */
export const sandboxApiPath = "/api/dev/sandbox/cloudpayments";

/**
 * CLOUDPAYMENTS_API_URL when it is another demo instance's sandbox (DESIGN §15: that is
 * how several demo instances share one bank), without a trailing slash; else undefined.
 * Only in demo mode: a production server treats any URL as the real gateway's.
 */
export function sharedSandboxUrl(
  config: Pick<Config, "cloudPaymentsApiUrl"> & { mode?: Config["mode"] },
): string | undefined {
  const url = config.cloudPaymentsApiUrl?.replace(/\/+$/, "");
  if (config.mode !== "demo" || !url || !URL.canParse(url)) return undefined;
  return new URL(url).pathname.endsWith(sandboxApiPath) ? url : undefined;
}

/**
 * The sandbox's own call, which the real gateway does not have: the real widget carries
 * the order to the gateway itself, the sandbox's widget only names its invoice, so the
 * shop registers the order first, on the bank that will be asked to pay it.
 */
export function createSandboxOrderClient(settings: GatewaySettings, http: HttpClient) {
  const call = gatewayCaller(settings, http);
  return {
    async register(order: SandboxOrder): Promise<void> {
      const answer = await call<undefined>("/orders/register", {
        InvoiceId: order.invoice_id,
        Amount: toCurrencyUnits(order.amount),
        Currency: order.currency,
        AccountId: order.account_id,
        Description: order.description,
        ...(order.email ? { Email: order.email } : {}),
        ...(order.data === undefined ? {} : { JsonData: order.data }),
      });
      if (!answer.Success) throw new Error(`the sandbox refused the order: ${answer.Message ?? "no reason"}`);
    },
  };
}
