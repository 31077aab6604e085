import type { Database } from "../../../../db/database";
import { type RetiredReason, retiredLinks } from "../../../../db/queries/retired-links";

/** How a link's token is kept once retired: its SHA-256 (hex), never the token itself. */
export const linkHash = (token: string) => new Bun.CryptoHasher("sha256").update(token).digest("hex");

/**
 * Keeps the device's current link as retired (unlinked, or replaced by a new one), so an
 * app still fetching it reads why inside the app. Call it in the transaction that takes
 * the link away.
 */
export async function retireLink(
  database: Database,
  device: { id: number; sub_token: string | null },
  reason: RetiredReason,
  now: number,
) {
  if (device.sub_token) await retiredLinks.add(database, linkHash(device.sub_token), device.id, reason, now);
}
