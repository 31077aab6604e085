import { type APIRequestContext, expect, request } from "@playwright/test";

export type PayingCustomer = { email: string; uid: string; userId: number; accountId: string };

/** A call that must succeed, its body as JSON. */
async function posted<T>(api: APIRequestContext, path: string, data: unknown): Promise<T> {
  const response = await api.post(path, { data });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

/**
 * A customer who paid the 1-unit first payment (a one-day trial) through the sandbox bank,
 * as the widget would: signed in through the demo provider, ordered and paid by API, in a
 * session of its own so it never meets the browser's. The bank's ledger holds the charge.
 */
export async function payingCustomerThroughApi(baseURL: string, email: string): Promise<PayingCustomer> {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { "accept-language": "en" } });
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
