import type { MailData, MailKind } from "./kinds";

/** The path of a payment's printable receipt, in the payment history and in mails. */
export const receiptPath = (paymentId: number) => `/api/profile/payments/${paymentId}/receipt`;

/**
 * A link a message's facts keep is a path on this server (money events are queued where only
 * the database is at hand); it is made whole on the public origin the message is rendered
 * with, so every message names the origin its app has then, as the renewal notice's cancel
 * link does (with PORT=0 that origin is known only once the server listens). Messages queued
 * before kept the whole URL, which stays as it was.
 */
export const linkOn = (origin: string, link: string) => (link.startsWith("/") ? `${origin}${link}` : link);

/** A message's facts as its template reads them: its links whole on `origin`. */
export function factsOn<K extends MailKind>(origin: string, kind: K, data: MailData[K]): MailData[K] {
  if (kind !== "payment_succeeded") return data;
  const paid = data as MailData["payment_succeeded"];
  return { ...paid, receiptUrl: linkOn(origin, paid.receiptUrl) } as MailData[K];
}
