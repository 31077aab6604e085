import type { Database } from "../../../db/database";
import type { Config } from "../../platform/config";

/** The public origin links in mails are built on: PUBLIC_URL, else this server on localhost (demo). */
export function publicUrlOf(config: Pick<Config, "publicUrl" | "port">): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

/**
 * Money events are settled where only the database is at hand (gateway notifications,
 * renewal passes, look-ups after a crash), and their messages are queued in the same
 * transaction; so the composition root tells each database its public origin once.
 */
const origins = new WeakMap<Database, string>();

export function setMailOrigin(database: Database, config: Pick<Config, "publicUrl" | "port">): void {
  origins.set(database, publicUrlOf(config));
}

/** The default port's origin until `setMailOrigin` is called (a database opened by a script). */
const originOf = (database: Database) => origins.get(database) ?? "http://localhost:3000";

/** The path of a payment's printable receipt, in the payment history and in mails. */
export const receiptPath = (paymentId: number) => `/api/profile/payments/${paymentId}/receipt`;

/** The cabinet's printable receipt of one payment (GET /api/profile/payments/{id}/receipt). */
export const receiptUrlOf = (database: Database, paymentId: number) =>
  `${originOf(database)}${receiptPath(paymentId)}`;
