import type { PaymentProvider } from "../../core/payment-methods";
import type { Database } from "../database";
import { statement } from "../database";

/**
 * A request to a provider, written before it is sent (migration 0032): its idempotence
 * key and exact body, so a retry after a timeout, a 5xx or a crash sends the same bytes
 * under the same key, and the provider's id of what it made once an answer said it.
 */
export type ProviderRequestRow = {
  idempotence_key: string;
  provider: PaymentProvider;
  operation: "payment" | "refund";
  invoice_id: string;
  /** The JSON body as sent. */
  body: string;
  object_id: string | null;
  created_at: number;
  answered_at: number | null;
};

export const providerRequests = {
  /**
   * Keeps the request under its key, or leaves the one already kept (a retry, another
   * instance): the answer is the row as kept, whose body is the one to send.
   */
  async keep(
    db: Database,
    request: Pick<ProviderRequestRow, "idempotence_key" | "provider" | "operation" | "invoice_id" | "body">,
    now: number,
  ): Promise<ProviderRequestRow> {
    await statement(
      db,
      `INSERT INTO provider_requests (idempotence_key, provider, operation, invoice_id, body, created_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ).run(
      request.idempotence_key,
      request.provider,
      request.operation,
      request.invoice_id,
      request.body,
      now,
    );
    const kept = await providerRequests.byKey(db, request.idempotence_key);
    if (!kept) throw new Error(`provider request ${request.idempotence_key} was not kept`);
    return kept;
  },

  byKey: (db: Database, key: string) =>
    statement<ProviderRequestRow, [string]>(
      db,
      "SELECT * FROM provider_requests WHERE idempotence_key = ?",
    ).get(key),

  /** The newest payment request sent for an invoice, if any was. */
  latestPaymentOf: (db: Database, provider: PaymentProvider, invoiceId: string) =>
    statement<ProviderRequestRow, [string, string]>(
      db,
      `SELECT * FROM provider_requests WHERE invoice_id = ? AND provider = ? AND operation = 'payment'
       ORDER BY created_at DESC, idempotence_key DESC LIMIT 1`,
    ).get(invoiceId, provider),

  /** The request that made an object, by the provider's id of it. */
  byObjectId: (db: Database, provider: PaymentProvider, objectId: string) =>
    statement<ProviderRequestRow, [string, string]>(
      db,
      "SELECT * FROM provider_requests WHERE object_id = ? AND provider = ? ORDER BY created_at DESC LIMIT 1",
    ).get(objectId, provider),

  /** What the provider named the object the request made. */
  answered: (db: Database, key: string, objectId: string, now: number) =>
    statement<never, [string, number, string]>(
      db,
      "UPDATE provider_requests SET object_id = ?, answered_at = ? WHERE idempotence_key = ?",
    ).run(objectId, now, key),

  /**
   * Requests older than the provider remembers their keys; at most `limit`, oldest first.
   * One never answered stays while its payment is undecided: it is what says the attempt
   * was sent, and what a look-up after a long outage searches the provider for.
   */
  forgetBefore: (db: Database, before: number, limit: number) =>
    statement<never, [number, number]>(
      db,
      `DELETE FROM provider_requests WHERE idempotence_key IN (
         SELECT r.idempotence_key FROM provider_requests r WHERE r.created_at < ?
           AND (r.object_id IS NOT NULL OR NOT EXISTS (
             SELECT 1 FROM payments p WHERE p.invoice_id = r.invoice_id AND p.status = 'pending'))
         ORDER BY r.created_at LIMIT ?)`,
    ).run(before, limit),
};
