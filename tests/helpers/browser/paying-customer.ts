import { type APIRequestContext, expect, type Page, request } from "@playwright/test";
import { languageCookieName } from "../../../core/languages";

export type PayingCustomer = { email: string; uid: string; userId: number; accountId: string };

/** A call that must succeed, its body as JSON. */
async function posted<T>(api: APIRequestContext, path: string, data: unknown): Promise<T> {
  const response = await api.post(path, { data });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

/**
 * A customer who paid the 1-unit first payment (a one-day trial) through the sandbox bank,
 * as the widget would: signed up in `language` through the demo provider, ordered and paid
 * by API, in a session of its own so it never meets the page's (whose origin it uses). The
 * bank's ledger holds the charge; the trial's first mails are queued in `language`.
 */
export async function payingCustomerThroughApi(
  page: Page,
  email: string,
  language: "ru" | "en" | "zh" | "kk" = "en",
): Promise<PayingCustomer> {
  const origin = new URL((await page.request.get("/api/health")).url());
  // The language cookie the site's switcher leaves, in the jar so the session cookie joins it.
  const languageCookie = {
    name: languageCookieName,
    value: language,
    domain: origin.hostname,
    path: "/",
    expires: -1,
    httpOnly: false,
    secure: false,
    sameSite: "Lax" as const,
  };
  const api = await request.newContext({
    baseURL: origin.origin,
    extraHTTPHeaders: { "accept-language": language },
    storageState: { cookies: [languageCookie], origins: [] },
  });
  try {
    const identity = await posted<{
      credential: string;
      uid: string;
      email: string;
      photoURL: string;
      providerId: string;
    }>(api, "/api/dev/idp/token", { email, provider: "google.com" });
    await posted(api, "/api/register", {
      uid: identity.uid,
      email: identity.email,
      photoURL: identity.photoURL,
      providerId: identity.providerId,
      referralCode: "",
      period: 1,
      tariff: 1,
      credential: identity.credential,
    });
    const order = await posted<{ invoiceId: string; accountId: string }>(api, "/api/shop/order", {
      uid: identity.uid,
      email: identity.email,
      tariff: 1,
      period: 1,
    });
    const paid = await posted<{ success: boolean }>(api, "/api/dev/sandbox/pay", {
      invoiceId: order.invoiceId,
      cardNumber: "4242 4242 4242 4242",
    });
    expect(paid.success, "the sandbox took the first payment").toBe(true);
    return {
      email: identity.email,
      uid: identity.uid,
      userId: Number(order.accountId.replace("customer-", "")),
      accountId: order.accountId,
    };
  } finally {
    await api.dispose();
  }
}
