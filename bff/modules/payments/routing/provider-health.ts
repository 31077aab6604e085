import { type PaymentProvider, paymentProviders } from "../../../../core/payment-methods";
import type { Clock } from "../../../platform/clock";

/** How far back a provider's calls count: "fails most calls for 5 minutes" (DESIGN §6). */
export const healthWindowMs = 5 * 60_000;

/** One or two failed calls are a blip, not an outage: fewer calls than this never fail a provider. */
export const healthMinimumCalls = 3;

/** Enough calls to judge by; a renewal pass of thousands keeps only its latest. */
const keptCalls = 1_000;

/** What one call to a provider came to: answered, or failed (a 5xx, a timeout, no connection). */
export type CallResult = "answered" | "failed";

export type ProviderState = {
  healthy: boolean;
  /** Calls and failed calls within the window. */
  calls: number;
  failed: number;
};

/**
 * How each provider has been answering this instance, over the last 5 minutes: a provider
 * that failed most of its calls is skipped for new purchases (choice and failover, DESIGN
 * §6) and comes back by itself once its failures are older than the window or its answers
 * outnumber them (renewals, refunds and look-ups still go to it). Kept per instance, in
 * memory: each instance judges by what it sees, and a restart starts from healthy. The
 * billing clock dates the calls, so the demo's test clock can age them.
 */
export function createProviderHealth(clock: Clock) {
  const calls = new Map<PaymentProvider, { at: number; isFailed: boolean }[]>();
  const listeners: ((provider: PaymentProvider, result: CallResult) => void)[] = [];

  const recent = (provider: PaymentProvider) => {
    const since = clock.now() - healthWindowMs;
    const kept = (calls.get(provider) ?? []).filter(({ at }) => at > since);
    calls.set(provider, kept);
    return kept;
  };

  const stateOf = (provider: PaymentProvider): ProviderState => {
    const within = recent(provider);
    const failed = within.filter(({ isFailed }) => isFailed).length;
    return {
      healthy: within.length < healthMinimumCalls || failed * 2 <= within.length,
      calls: within.length,
      failed,
    };
  };

  return {
    record(provider: PaymentProvider, result: CallResult) {
      const list = calls.get(provider) ?? [];
      list.push({ at: clock.now(), isFailed: result === "failed" });
      if (list.length > keptCalls) list.splice(0, list.length - keptCalls);
      calls.set(provider, list);
      for (const listener of listeners) listener(provider, result);
    },
    stateOf,
    isHealthy: (provider: PaymentProvider) => stateOf(provider).healthy,
    /** Every provider's state, for the panel and the metrics. */
    states: () => paymentProviders.map((provider) => ({ provider, ...stateOf(provider) })),
    /** Called at every recorded call (the metrics count them). */
    onCall(listener: (provider: PaymentProvider, result: CallResult) => void) {
      listeners.push(listener);
    },
  };
}

export type ProviderHealth = ReturnType<typeof createProviderHealth>;

/**
 * Runs a call to `provider` and records how it went: an answer of any kind (a decline
 * included) means the provider is up; a throw means it is not, unless `isAnswer` says the
 * error was an answer (a 429 turning the call away is the provider working as it should).
 */
export async function recordedCall<T>(
  health: ProviderHealth,
  provider: PaymentProvider,
  call: () => Promise<T>,
  isAnswer: (error: unknown) => boolean = () => false,
): Promise<T> {
  try {
    const result = await call();
    health.record(provider, "answered");
    return result;
  } catch (error) {
    health.record(provider, isAnswer(error) ? "answered" : "failed");
    throw error;
  }
}
