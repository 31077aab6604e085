import type { Database } from "../db/database";
import type { MailTransport } from "./modules/mail/transport";
import type { Payments } from "./modules/payments/gateway";
import type { IdentityProviders } from "./modules/sign-in/providers";
import type { AddressResolver } from "./platform/client-address";
import type { Clock } from "./platform/clock";
import type { Config } from "./platform/config";
import type { HttpClient } from "./platform/http-client";
import type { Metrics } from "./platform/metrics";

/**
 * What every feature module is built from: the services the composition root (`app.ts`)
 * builds. Tests build it around an in-memory database.
 */
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
  /** Prometheus counters and gauges of this server (DESIGN §16). */
  metrics: Metrics;
  /** Aborted when the server shuts down: a renewal pass ends after its current batch. */
  stopping: AbortSignal;
  /**
   * Real time for the renewal passes' leases (DESIGN §15), never the billing test clock: a
   * lease guards calls in flight now. A test may put one it can move, to let a lease lapse
   * without waiting its 30 s.
   */
  leaseClock: Clock;
};

/** Parts a test (or the server, for `stopping`) may put in place of the defaults. */
export type ContextOverrides = { mail?: MailTransport; stopping?: AbortSignal; leaseClock?: Clock };
