import type { Static } from "elysia";
import type { App } from "../../bff/app";
import type { fixtureBody } from "../../bff/modules/dev/fixtures";
import { apiOf, dataOf, identityOf, sessionOf } from "./api";
import { postJson } from "./app";

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
  return dataOf(apiOf(app).dev.idp.token.post({ email, provider, ...extra }));
}

/** A token of the demo identity provider. */
export type DemoToken = Awaited<ReturnType<typeof demoToken>>;

/** The body /api/register is sent for a demo token: its identity, the plan, no referral code unless given. */
export function registerBody(
  token: DemoToken,
  plan: { referralCode?: string; period?: number; tariff?: number } = {},
) {
  return {
    uid: token.uid,
    email: token.email,
    photoURL: token.photoURL,
    providerId: token.providerId,
    referralCode: plan.referralCode ?? "",
    period: plan.period ?? 30,
    tariff: plan.tariff ?? 1,
    credential: token.credential,
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
  const answer = await apiOf(app).register.post(registerBody(token, options), { headers: options.headers });
  if (answer.error) throw new Error(`register: ${answer.status} ${JSON.stringify(answer.error.value)}`);
  return {
    uid: token.uid,
    email: token.email,
    providerId: token.providerId,
    cookie: sessionCookieFrom(answer.response),
  };
}

/** A customer call with the customer's own session and identity. */
export function asCustomer(customer: SignedIn, path: string, body: Record<string, unknown> = {}) {
  return postJson(path, { uid: customer.uid, email: customer.email, ...body }, { cookie: customer.cookie });
}

/** What the demo fixture is asked for: the customer, its state, plan and devices. */
export type Fixture = Static<typeof fixtureBody>;

/** A customer in a given subscription state, made by the demo fixture. */
export async function fixture(app: App, body: Fixture) {
  return dataOf(apiOf(app).dev.fixtures.subscription.post(body));
}

/** The customer's own referral code, through the cabinet call. */
export async function referralCodeOf(app: App, customer: SignedIn): Promise<string> {
  const answer = await dataOf(
    apiOf(app).profile.getReferralCode.post(identityOf(customer), sessionOf(customer)),
  );
  return answer.referralCode;
}

/**
 * A device connected in the cabinet and added in its app (`devices/confirm`): in use and
 * holding its slot, no longer pending (a second Connect would offer the same pending link).
 */
export async function connectDeviceInUse(app: App, customer: SignedIn) {
  const devices = apiOf(app).profile.devices;
  const connected = await dataOf(devices.connect.post(identityOf(customer), sessionOf(customer)));
  await dataOf(
    devices.confirm.post({ ...identityOf(customer), deviceId: connected.deviceId }, sessionOf(customer)),
  );
  return connected;
}
