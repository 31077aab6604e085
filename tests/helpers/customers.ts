import type { createApp } from "../../bff/app";
import { postJson } from "./app";

type App = ReturnType<typeof createApp>;

export type SignedIn = { uid: string; email: string; providerId: string; cookie: string };

/** The session cookie pair (name=value) from a response's Set-Cookie. */
export function sessionCookieFrom(response: Response): string {
  const header = response.headers.getSetCookie().find((line) => line.startsWith("kannt_session="));
  if (!header) throw new Error(`no session cookie in ${response.status} response`);
  return header.split(";")[0] ?? "";
}

export async function demoToken(
  app: App,
  email: string,
  provider: "google.com" | "yandex" = "google.com",
  extra = {},
) {
  const response = await app.handle(postJson("/api/dev/idp/token", { email, provider, ...extra }));
  if (response.status !== 200) throw new Error(`demo token: ${response.status} ${await response.text()}`);
  return (await response.json()) as {
    credential: string;
    uid: string;
    email: string;
    photoURL: string;
    providerId: string;
  };
}

/** Signs a customer in through the demo provider and /api/register, like the browser does. */
export async function signIn(
  app: App,
  email: string,
  options: {
    provider?: "google.com" | "yandex";
    referralCode?: string;
    period?: number;
    tariff?: number;
    headers?: Record<string, string>;
  } = {},
): Promise<SignedIn> {
  const token = await demoToken(app, email, options.provider);
  const response = await app.handle(
    postJson(
      "/api/register",
      {
        uid: token.uid,
        email: token.email,
        photoURL: token.photoURL,
        providerId: token.providerId,
        referralCode: options.referralCode ?? "",
        period: options.period ?? 30,
        tariff: options.tariff ?? 1,
        credential: token.credential,
      },
      options.headers,
    ),
  );
  if (response.status !== 200) throw new Error(`register: ${response.status} ${await response.text()}`);
  return {
    uid: token.uid,
    email: token.email,
    providerId: token.providerId,
    cookie: sessionCookieFrom(response),
  };
}

/** A customer call with the customer's own session and identity. */
export function asCustomer(customer: SignedIn, path: string, body: Record<string, unknown> = {}) {
  return postJson(path, { uid: customer.uid, email: customer.email, ...body }, { cookie: customer.cookie });
}

export async function fixture(app: App, body: Record<string, unknown>) {
  const response = await app.handle(postJson("/api/dev/fixtures/subscription", body));
  if (response.status !== 200) throw new Error(`fixture: ${response.status} ${await response.text()}`);
  return (await response.json()) as { uid: string; email: string; userId: number };
}

/** The customer's own referral code, through the cabinet call. */
export async function referralCodeOf(app: App, customer: SignedIn): Promise<string> {
  const response = await app.handle(asCustomer(customer, "/api/profile/getReferralCode"));
  if (response.status !== 200) throw new Error(`getReferralCode: ${response.status}`);
  return ((await response.json()) as { referralCode: string }).referralCode;
}

/**
 * A device connected in the cabinet and added in its app (`devices/confirm`): in use and
 * holding its slot, no longer pending (a second Connect would offer the same pending link).
 */
export async function connectDeviceInUse(app: App, customer: SignedIn) {
  const response = await app.handle(asCustomer(customer, "/api/profile/devices/connect"));
  if (response.status !== 200)
    throw new Error(`devices/connect: ${response.status} ${await response.text()}`);
  const connected = (await response.json()) as { deviceId: string; subscriptionUrl: string };
  const confirmed = await app.handle(
    asCustomer(customer, "/api/profile/devices/confirm", { deviceId: connected.deviceId }),
  );
  if (confirmed.status !== 200)
    throw new Error(`devices/confirm: ${confirmed.status} ${await confirmed.text()}`);
  return connected;
}
