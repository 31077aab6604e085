import { join } from "node:path";
import type { Database } from "../../../db/database";
import { decisionDelay } from "../../adapters/sandbox/answer-delay";
import { createYooKassaClient, type YooKassaClient } from "../../adapters/yookassa/client";
import { openYooKassaLedger } from "../../adapters/yookassa-sandbox/ledger";
import {
  createYooKassaSandbox,
  type YooKassaSandbox,
  yooKassaSandboxPath,
} from "../../adapters/yookassa-sandbox/sandbox";
import type { Clock } from "../../platform/clock";
import type { Config } from "../../platform/config";
import { type HttpClient, loopbackOrigin } from "../../platform/http-client";
import { createProviderRequestBook, type ProviderRequestBook } from "./providers/provider-requests";

/** YooKassa's API, when no other base is configured outside the demo. */
export const yooKassaApiUrl = "https://api.yookassa.ru";

/** Where YooKassa (and the sandbox) POSTs its notifications. */
export const yooKassaNotificationPath = "/api/payments/yookassa/notification";

export type YooKassaShop = {
  client: YooKassaClient;
  /** Each POST kept before it is sent, with its idempotence key (DESIGN §6). */
  requests: ProviderRequestBook;
  /** The embedded sandbox, when this instance is its own YooKassa. */
  sandbox: YooKassaSandbox | undefined;
};

/**
 * YooKassa (DESIGN §6, "Payment methods and providers"). Production: configured by
 * YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY (else there is none), at YOOKASSA_API_URL or
 * YooKassa's own. Demo: always, with the pair configured or generated into the data folder;
 * without YOOKASSA_API_URL it is the embedded sandbox at /api/dev/sandbox/yookassa, reached
 * through the same client at its loopback address, with its ledger in its own file.
 */
export function createYooKassaShop(
  config: Config,
  clock: Clock,
  http: HttpClient,
  database: Database,
): YooKassaShop | undefined {
  const isDemo = config.mode === "demo";
  if (config.yooKassaShopId === "" || config.yooKassaSecretKey === "") {
    if (isDemo)
      throw new Error("The generated YooKassa pair is missing: run prepareDataFolder(config) first.");
    return undefined;
  }
  const isSandbox = isDemo && config.yooKassaApiUrl === undefined;
  const apiUrl =
    config.yooKassaApiUrl ?? (isSandbox ? `${loopbackOrigin}${yooKassaSandboxPath}` : yooKassaApiUrl);
  const settings = { apiUrl, shopId: config.yooKassaShopId, secretKey: config.yooKassaSecretKey };
  const ledgerPath =
    config.databasePath === ":memory:" ? ":memory:" : join(config.dataDirectory, "sandbox-yookassa.db");
  return {
    client: createYooKassaClient(settings, http),
    requests: createProviderRequestBook(database, clock, "yookassa"),
    sandbox: isSandbox
      ? createYooKassaSandbox(openYooKassaLedger(ledgerPath), clock, http, {
          shopId: config.yooKassaShopId,
          secretKey: config.yooKassaSecretKey,
          notificationUrl: `${loopbackOrigin}${yooKassaNotificationPath}`,
          pageOrigin: config.publicUrl,
          // The payer's bank decides an SBP autopay charge as slowly as the sandbox answers.
          sbpSettlementDelayMs: decisionDelay({
            latencyMs: config.sandboxLatencyMs,
            jitterMs: config.sandboxJitterMs,
          }),
        })
      : undefined,
  };
}
