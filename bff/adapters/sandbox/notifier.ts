import type { HttpClient } from "../../platform/http-client";
import { signBody } from "../cloudpayments/signature";

export type NotificationKind = "check" | "pay" | "fail" | "refund";
export type Notify = (
  kind: NotificationKind,
  fields: Record<string, string | number | undefined>,
) => Promise<number>;

/**
 * Posts the gateway's signed, form-urlencoded notifications to the shop; each call
 * answers the shop's code (13 when it did not answer properly).
 */
export function createNotifier(
  http: HttpClient,
  settings: { apiSecret: string; notificationUrl: string },
): Notify {
  return async (kind, fields) => {
    const form = new URLSearchParams();
    for (const [name, value] of Object.entries(fields))
      if (value !== undefined) form.set(name, String(value));
    const body = form.toString();
    const response = await http.fetch(
      new Request(`${settings.notificationUrl}/${kind}`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-hmac": signBody(settings.apiSecret, body),
          "x-content-hmac": signBody(settings.apiSecret, decodeURIComponent(body.replace(/\+/g, " "))),
        },
        body,
      }),
    );
    const answer = (await response.json().catch(() => ({}))) as { code?: number };
    return response.ok ? (answer.code ?? 13) : 13;
  };
}
