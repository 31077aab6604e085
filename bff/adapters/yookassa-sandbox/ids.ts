import { randomBytes, randomInteger } from "../../platform/random";

const hex = (bytes: number) => Buffer.from(randomBytes(bytes)).toString("hex");

/**
 * Ids shaped like YooKassa's own (`2d6b7b2f-000f-5000-9000-1b68e7b15f3f` for a payment,
 * `…-0015-5000-…` for a refund), so a client that checks their form takes them.
 */
export const newPaymentId = () => `${hex(4)}-000f-5000-9000-${hex(6)}`;
export const newRefundId = () => `${hex(4)}-0015-5000-8000-${hex(6)}`;

/** An SBP QR's id as the bank page names it: like the SBP's own (NSPK) ids, 32 capitals and digits. */
export function newQrId(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  let id = "BD";
  while (id.length < 32) id += alphabet[randomInteger(0, alphabet.length - 1)];
  return id;
}
