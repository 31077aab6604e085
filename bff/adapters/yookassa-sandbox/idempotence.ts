import type { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { yooKassaLedgerIdempotence } from "../../../db/queries/yookassa-ledger";
import type { Clock } from "../../platform/clock";

/** How long YooKassa honours an Idempotence-Key: a day from its first request. */
export const idempotenceWindowMs = 24 * 60 * 60 * 1000;

/** YooKassa's longest key. */
export const longestKey = 64;

/** A body's digest whatever the order of its keys: a retry that serializes differently is the same request. */
function digestOf(body: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === "object")
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
      );
    return value;
  };
  return createHash("sha256")
    .update(JSON.stringify(canonical(body)))
    .digest("hex");
}

export type KeyReading =
  /** A new key (or one past its day): do the work. */
  | { kind: "new"; digest: string }
  /** The same request again within the day: answer what it made, as it is now. */
  | { kind: "repeat"; objectId: string }
  /** The key came with another request within the day: YooKassa refuses it (400). */
  | { kind: "conflict" };

/**
 * YooKassa's idempotence (DESIGN §6): the first request under a key is done; the same key
 * with the same body within 24 hours (on the app's clock) answers what it made, without
 * doing it again; the same key with another body or path is refused. Only requests that
 * made something are kept: a refused one may be sent again, mended, under its key.
 */
export function createIdempotence(ledger: Database, clock: Clock) {
  return {
    read(key: string, path: string, body: unknown): KeyReading {
      const digest = digestOf(body);
      const first = yooKassaLedgerIdempotence.find(ledger, key, clock.now() - idempotenceWindowMs);
      if (!first) return { kind: "new", digest };
      return first.path === path && first.body_digest === digest
        ? { kind: "repeat", objectId: first.object_id }
        : { kind: "conflict" };
    },

    /** Called in the same synchronous step as the work, so a repeat sent meanwhile finds it. */
    keep(key: string, path: string, digest: string, objectId: string): void {
      yooKassaLedgerIdempotence.keep(ledger, {
        key,
        path,
        body_digest: digest,
        object_id: objectId,
        created_at: clock.now(),
      });
    },
  };
}

export type Idempotence = ReturnType<typeof createIdempotence>;
