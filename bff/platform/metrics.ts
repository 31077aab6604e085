import { Counter, collectDefaultMetrics, Gauge, Registry } from "prom-client";
import { type PaymentProvider, paymentProviders } from "../../core/payment-methods";
import type { Database } from "../../db/database";
import { mailDelivery } from "../../db/queries/mail-outbox";
import { createRequestDurations } from "./request-durations";

/** Methods named as such; anything else is one label value, so labels stay few. */
const knownMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The outcomes each counter counts, every one exported from the start (see createMetrics). */
const renewalResults = ["completed", "declined", "pending", "free", "unanswered", "recovered"] as const;
const mailResults = ["sent", "failed", "retried"] as const;
const notificationKinds = ["check", "pay", "fail", "refund"] as const;

/** What the metrics read of the payment providers' health (payments/routing/provider-health.ts). */
type WatchedHealth = {
  isHealthy(provider: PaymentProvider): boolean;
  onCall(listener: (provider: PaymentProvider, result: "answered" | "failed") => void): void;
};

/**
 * The service's Prometheus metrics (DESIGN §16), one registry per server. Counters are
 * this instance's own since it started; Prometheus sums the instances.
 */
export function createMetrics(database: Database) {
  const registry = new Registry();
  const registers = [registry];
  const requestDurations = createRequestDurations(registry);
  const renewals = new Counter({
    name: "kannt_renewals_total",
    help: "Renewal attempts by outcome: completed, declined, pending (the bank decides later), free, unanswered (settled later), recovered.",
    labelNames: ["result"] as const,
    registers,
  });
  const notifications = new Counter({
    name: "kannt_notifications_total",
    help: "Gateway notifications received, by kind and outcome (accepted, rejected with its code, refused).",
    labelNames: ["kind", "result"] as const,
    registers,
  });
  const mails = new Counter({
    name: "kannt_mails_total",
    help: "Delivery attempts of customer e-mail, by result: sent, failed (for good), retried.",
    labelNames: ["result"] as const,
    registers,
  });
  // prom-client writes no sample for a label value until it is first counted. A series that
  // does not exist yet makes an alert's expression empty, so it never fires (no mail "sent"
  // since a restart with the SMTP server down), and increase() misses the first count of a
  // series that appears at 1. So every known value is there, at 0, from the start.
  for (const result of renewalResults) renewals.inc({ result }, 0);
  for (const result of mailResults) mails.inc({ result }, 0);
  // The codes a notification may be answered with are open-ended; these two are not.
  for (const kind of notificationKinds)
    for (const result of ["accepted", "refused"]) notifications.inc({ kind, result }, 0);
  const providerCalls = new Counter({
    name: "kannt_payment_provider_calls_total",
    help: "Calls to each payment provider by result: answered (a decline included) or failed (5xx, timeout, no connection).",
    labelNames: ["provider", "result"] as const,
    registers,
  });
  for (const provider of paymentProviders)
    for (const result of ["answered", "failed"]) providerCalls.inc({ provider, result }, 0);
  let providerHealth: WatchedHealth | undefined;
  new Gauge({
    name: "kannt_payment_provider_up",
    help: "1 while the provider answers most calls of the last 5 minutes on this instance; 0 while new purchases skip it.",
    labelNames: ["provider"] as const,
    registers,
    collect() {
      for (const provider of paymentProviders)
        this.set({ provider }, providerHealth === undefined || providerHealth.isHealthy(provider) ? 1 : 0);
    },
  });
  let lastPass: { startedAt: number; intervalMs: number } | undefined;
  new Gauge({
    name: "kannt_outbox_depth",
    help: "Messages waiting in the outbox to be sent.",
    registers,
    async collect() {
      this.set(await mailDelivery.pendingCount(database));
    },
  });
  new Gauge({
    name: "kannt_scheduler_lag_seconds",
    help: "How much later than its interval the renewal scheduler's latest pass began (0 when on time).",
    registers,
    collect() {
      // Real time: the scheduler's timer runs on it, whatever the billing clock says.
      const late = lastPass ? Date.now() - lastPass.startedAt - lastPass.intervalMs : 0;
      this.set(Math.max(0, late) / 1000);
    },
  });
  return {
    registry,
    /** Process CPU, memory and the like; once per server process, not per test app. */
    collectProcessMetrics: () => collectDefaultMetrics({ register: registry }),
    observeRequest(method: string, route: string, status: number, startedAt: number) {
      requestDurations.observe(
        knownMethods.has(method) ? method : "OTHER",
        route,
        status,
        (performance.now() - startedAt) / 1000,
      );
    },
    renewals,
    notifications,
    mails,
    /** Counts the providers' calls and exports their health (DESIGN §6, choice and failover). */
    watchProviderHealth(health: WatchedHealth) {
      providerHealth = health;
      health.onCall((provider, result) => providerCalls.inc({ provider, result }));
    },
    /** The scheduler's tick: a pass began (or would have, were one still running). */
    schedulerPassStarted(startedAt: number, intervalMs: number) {
      lastPass = { startedAt, intervalMs };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
