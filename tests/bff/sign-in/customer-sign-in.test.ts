import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, test } from "vitest";
import { demoGoogleClientId, demoIssuer } from "../../../bff/adapters/demo-idp/provider";
import { apiOf, dataOf, identityOf, refusalOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { demoToken, sessionCookieFrom } from "../../helpers/customers";

const { app, context } = await makeTestApp();
const api = apiOf(app);
const demo = context.identity.demo;
if (!demo) throw new Error("the test app runs in demo mode");

type Registration = Parameters<typeof api.register.post>[0];

const registerWith = (
  credential: string,
  identity: { uid: string; email: string },
  extra: Partial<Registration> = {},
) =>
  api.register.post({
    uid: identity.uid,
    email: identity.email,
    photoURL: null,
    providerId: "google.com",
    referralCode: "",
    period: 30,
    tariff: 1,
    credential,
    ...extra,
  });

/** The shop as the customer signed in by `registered` sees it. */
async function shopAfter(
  registered: ReturnType<typeof registerWith>,
  identity: { uid: string; email: string },
) {
  const headers = { cookie: sessionCookieFrom((await registered).response) };
  return dataOf(api.shop.getShop.post(identityOf(identity), { headers }));
}

describe("register with a Google-style credential", () => {
  test("a valid token signs the customer in with an HttpOnly, SameSite=Lax session", async () => {
    const token = await demoToken(app, "valid@example.com");
    const { status, data, response } = await registerWith(token.credential, token);
    expect(status).toBe(200);
    expect(data).toEqual({
      success: true,
      expirationDate: null,
      subscriptionIsActive: false,
    });
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith("kannt_session="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const profile = await api.profile.post(identityOf(token), {
      headers: { cookie: sessionCookieFrom(response) },
    });
    expect(profile.status).toBe(200);
  });

  test("a token signed by another key is refused", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const forged = await new SignJWT({ email: "forged@example.com", email_verified: true })
      .setProtectedHeader({ alg: "ES256", kid: (await exportJWK(publicKey)).kid ?? "forged" })
      .setIssuer(demoIssuer)
      .setAudience(demoGoogleClientId)
      .setSubject("forged-uid")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
    const registered = registerWith(forged, { uid: "forged-uid", email: "forged@example.com" });
    const refused = await refusalOf(registered);
    expect(refused.status).toBe(401);
    expect(refused.message).toMatch(/could not be verified/);
    expect((await registered).response.headers.getSetCookie()).toEqual([]);
  });

  test("an expired token is refused", async () => {
    const identity = { uid: "expired-uid", email: "expired@example.com" };
    const credential = await demo.signGoogleIdToken({
      ...identity,
      issuedAt: Date.now() - 3 * 3600_000,
      expiresInSeconds: 3600,
    });
    const refused = await refusalOf(registerWith(credential, identity));
    expect(refused.status).toBe(401);
    expect(refused.message).toMatch(/expired/);
  });

  test("a token for another audience is refused", async () => {
    const identity = { uid: "aud-uid", email: "aud@example.com" };
    const credential = await demo.signGoogleIdToken({ ...identity, audience: "someone-elses-client-id" });
    const response = await registerWith(credential, identity);
    expect(response.status).toBe(401);
  });

  test("an unverified e-mail is refused", async () => {
    const identity = { uid: "unverified-uid", email: "unverified@example.com" };
    const credential = await demo.signGoogleIdToken({ ...identity, emailVerified: false });
    const refused = await refusalOf(registerWith(credential, identity));
    expect(refused.status).toBe(401);
    expect(refused.message).toMatch(/not verified/);
  });

  test("a body naming another account than the token is refused", async () => {
    const token = await demoToken(app, "owner@example.com");
    const refused = await refusalOf(
      registerWith(token.credential, { uid: token.uid, email: "victim@example.com" }),
    );
    expect(refused.status).toBe(401);
    expect(refused.message).toMatch(/does not match/);
  });

  test("an e-mail that starts with an emoji or a lone surrogate gets a well-formed demo avatar", async () => {
    const emoji = await demoToken(app, "🙂smile@example.com");
    expect(new URL(emoji.photoURL, "http://localhost").searchParams.get("letter")).toBe("🙂");
    expect((await registerWith(emoji.credential, emoji)).status).toBe(200);
    const broken = await demoToken(app, "\uD800broken@example.com");
    expect(new URL(broken.photoURL, "http://localhost").searchParams.get("letter")).toBe("\uFFFD");
  });

  test("no credential is refused", async () => {
    const response = await registerWith("", { uid: "x", email: "x@example.com" });
    expect(response.status).toBe(401);
  });

  test("an unknown provider is a 400", async () => {
    const token = await demoToken(app, "provider@example.com");
    const response = await registerWith(token.credential, token, { providerId: "facebook.com" });
    expect(response.status).toBe(400);
  });
});

describe("register with a Yandex token", () => {
  const registerYandex = (token: { credential: string; uid: string; email: string }) =>
    registerWith(token.credential, token, { providerId: "yandex" });

  test("a token of our application is accepted after the info endpoint confirms it", async () => {
    const token = await demoToken(app, "ya@example.ru", "yandex");
    const response = await registerYandex(token);
    expect(response.status).toBe(200);
  });

  test("a token issued to another client id is refused", async () => {
    const token = await demoToken(app, "ya-other@example.ru", "yandex", { clientId: "another-yandex-app" });
    const refused = await refusalOf(registerYandex(token));
    expect(refused.status).toBe(401);
    expect(refused.message).toMatch(/another application/);
  });

  test("a token the info endpoint does not know is refused", async () => {
    const response = await registerYandex({ credential: "made-up-token", uid: "1", email: "a@b.ru" });
    expect(response.status).toBe(401);
  });
});

describe("period and tariff", () => {
  test.each([
    [{ period: 0 }, /period must be a whole number of days from 1 to 30/],
    [{ period: 31 }, /period must be/],
    [{ period: 2.5 }, /period must be/],
    [{ period: -3 }, /period must be/],
    [{ tariff: 2 }, /tariff must be 1, 3, 6 or 12 months/],
    [{ tariff: 0 }, /tariff must be/],
    [{ tariff: 24 }, /tariff must be/],
    [{ tariff: 1.5 }, /tariff must be/],
  ])("%j is a 400 with a clear message", async (values, message) => {
    const token = await demoToken(app, "ranges@example.com");
    const refused = await refusalOf(registerWith(token.credential, token, values));
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(message);
  });

  test("a wrong type is a 400 that names the field", async () => {
    const token = await demoToken(app, "types@example.com");
    const refused = await refusalOf(registerWith(token.credential, token, { period: "thirty" as never }));
    expect(refused.status).toBe(400);
    expect(refused.message).toContain("period");
  });

  test("numbers written as text, as browser storage keeps them, are taken as numbers", async () => {
    const token = await demoToken(app, "as-text@example.com");
    // Text where the schema's type says number: what browser storage hands the client.
    const asText = { period: "7", tariff: "6" } as never;
    const registered = registerWith(token.credential, token, asText);
    expect((await registered).status).toBe(200);
    expect((await shopAfter(registered, token)).periodMonths).toBe(6);
    const outOfRange = await refusalOf(registerWith(token.credential, token, { period: "31" as never }));
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.message).toMatch(/period must be a whole number of days from 1 to 30/);
  });

  test.each([1, 30])("period %i is accepted", async (period) => {
    const token = await demoToken(app, `period${period}@example.com`);
    expect((await registerWith(token.credential, token, { period })).status).toBe(200);
  });

  test.each([1, 3, 6, 12])("tariff %i is accepted and the shop quotes that period", async (tariff) => {
    const token = await demoToken(app, `tariff${tariff}@example.com`);
    const registered = registerWith(token.credential, token, { tariff });
    expect((await registered).status).toBe(200);
    const body = await shopAfter(registered, token);
    expect(body.periodMonths).toBe(tariff);
    expect(body.firstPayment).toBe(1);
    expect(body.monthlyPayment).toBe({ 1: 150, 3: 400, 6: 600, 12: 1080 }[tariff]);
  });
});

describe("currency", () => {
  test("a customer whose language is kk at sign-up pays in tenge", async () => {
    const token = await demoToken(app, "kz@example.kz");
    const registered = api.register.post(
      {
        uid: token.uid,
        email: token.email,
        providerId: "google.com",
        period: 1,
        tariff: 1,
        credential: token.credential,
      },
      { headers: { cookie: "i18next=kk" } },
    );
    expect(await shopAfter(registered, token)).toMatchObject({
      currency: "KZT",
      firstPayment: 10,
      monthlyPayment: 900,
    });
  });
});
