import type { YooKassaNotification } from "../../../adapters/yookassa/types";

/** The events the product acts on; YooKassa may send others, which are answered and ignored. */
export const actedOnEvents = ["payment.succeeded", "payment.canceled", "refund.succeeded"] as const;
export type ActedOnEvent = (typeof actedOnEvents)[number];

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A YooKassa notification as the bytes it sent: `{type: "notification", event, object}`
 * with the object's id, or undefined for anything else. Nothing in it is believed: it is
 * not signed, so it only says which object to look up.
 */
export function readYooKassaNotification(raw: Uint8Array): YooKassaNotification | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8.decode(raw));
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  const { type, event, object } = parsed as Record<string, unknown>;
  if (type !== "notification" || typeof event !== "string" || event.length > 64) return undefined;
  if (object === null || typeof object !== "object" || Array.isArray(object)) return undefined;
  const id = (object as Record<string, unknown>).id;
  if (typeof id !== "string" || id === "" || id.length > 64) return undefined;
  return { type, event, object: object as YooKassaNotification["object"] };
}

export const isActedOn = (event: string): event is ActedOnEvent =>
  (actedOnEvents as readonly string[]).includes(event);
