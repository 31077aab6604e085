import type { PaymentProvider } from "../../../../core/payment-methods";
import type { Database } from "../../../../db/database";
import { type ProviderRequestRow, providerRequests } from "../../../../db/queries/provider-requests";
import type { Clock } from "../../../platform/clock";

/** The longest idempotence key YooKassa takes. */
const longestKey = 64;

/**
 * A deterministic idempotence key from what the request is about (DESIGN §6): the same
 * operation on the same invoice is the same key on every retry, on any instance, after
 * any crash. Kept readable when it fits; hashed when it would be too long.
 */
export function idempotenceKey(...parts: string[]): string {
  const key = parts.join(":");
  if (key.length <= longestKey) return key;
  return `k:${new Bun.CryptoHasher("sha256").update(key).digest("base64url")}`;
}

/** A short digest of a request's body, for keys that must change when the request does. */
export const bodyDigest = (body: unknown) =>
  new Bun.CryptoHasher("sha256").update(JSON.stringify(body)).digest("base64url").slice(0, 16);

export type KeptRequest = Pick<ProviderRequestRow, "idempotence_key" | "body" | "object_id" | "created_at">;

/**
 * Requests to a provider written before they are sent (migration 0032, a row first and an
 * action second): a retry, a crash or another instance sends the kept body unchanged under
 * the kept key, so the provider answers with the one object it made.
 */
export function createProviderRequestBook(database: Database, clock: Clock, provider: PaymentProvider) {
  return {
    /**
     * Sends a request under its key: the body kept the first time is the one sent, whatever
     * is asked now. `objectIdOf` reads the provider's id of what it made, kept with the request.
     */
    async send<Answer>(
      request: { key: string; operation: "payment" | "refund"; invoiceId: string; body: unknown },
      post: (body: unknown, key: string) => Promise<Answer>,
      objectIdOf: (answer: Answer) => string,
    ): Promise<Answer> {
      const kept = await providerRequests.keep(
        database,
        {
          idempotence_key: request.key,
          provider,
          operation: request.operation,
          invoice_id: request.invoiceId,
          body: JSON.stringify(request.body),
        },
        clock.now(),
      );
      return this.resend(kept, post, objectIdOf);
    },

    /** Sends a kept request again, exactly as kept. */
    async resend<Answer>(
      kept: KeptRequest,
      post: (body: unknown, key: string) => Promise<Answer>,
      objectIdOf: (answer: Answer) => string,
    ): Promise<Answer> {
      const answer = await post(JSON.parse(kept.body), kept.idempotence_key);
      await providerRequests.answered(database, kept.idempotence_key, objectIdOf(answer), clock.now());
      return answer;
    },

    /** The body of the request that made an object, as sent (within the two days requests are kept). */
    async bodyOf(objectId: string): Promise<unknown> {
      const kept = await providerRequests.byObjectId(database, provider, objectId);
      return kept ? JSON.parse(kept.body) : undefined;
    },

    /** The newest payment request kept for an invoice: what a look-up starts from. */
    latestPaymentOf: (invoiceId: string) => providerRequests.latestPaymentOf(database, provider, invoiceId),

    now: () => clock.now(),
  };
}

export type ProviderRequestBook = ReturnType<typeof createProviderRequestBook>;
