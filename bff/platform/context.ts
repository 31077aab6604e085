import type { Database } from "bun:sqlite";
import { loadDemoKeys } from "../adapters/demo-idp/keys";
import { createIdentityProviders, type IdentityProviders } from "../modules/identity/providers";
import { createMailTransport, type MailTransport } from "../modules/mail/transport";
import { createPayments, type Payments } from "../modules/payments/gateway";
import { type AddressResolver, createAddressResolver } from "./client-address";
import type { Clock } from "./clock";
import type { Config } from "./config";
import { createHttpClient, type HttpClient } from "./http-client";

/** What every feature module is built from; tests build it around an in-memory database. */
export type AppContext = {
  config: Config;
  database: Database;
  clock: Clock;
  http: HttpClient;
  identity: IdentityProviders;
  payments: Payments;
  /** The client's address by the rule of DESIGN §12, for throttles, audit and receipts. */
  clientAddress: AddressResolver;
  /** How the mail worker delivers: SMTP, or the demo's embedded outbox. */
  mail: MailTransport;
};

/** Parts a test may put in place of the real ones. */
export type ContextOverrides = { mail?: MailTransport };

export async function createContext(
  config: Config,
  database: Database,
  clock: Clock,
  overrides: ContextOverrides = {},
): Promise<AppContext> {
  const http = createHttpClient();
  const keys = await loadDemoKeys(config.databasePath === ":memory:" ? undefined : config.dataDirectory);
  return {
    config,
    database,
    clock,
    http,
    identity: createIdentityProviders(config, keys, clock, http),
    payments: createPayments(config, clock, http),
    clientAddress: createAddressResolver(config.trustedProxies),
    mail: overrides.mail ?? createMailTransport(config),
  };
}
