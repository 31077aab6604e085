import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { fixture, signIn } from "../../helpers/customers";

const { app, clock } = await makeTestApp();
const api = apiOf(app);
const day = 24 * 60 * 60 * 1000;

type Identity = { uid?: string; email: string };
type Options = { headers?: Record<string, string> };
type Answer = { status: number; error: { value: unknown } | null };

/** Every customer call, with the extra body fields it needs. */
const customerRoutes: [string, (identity: Identity, options?: Options) => Promise<Answer>][] = [
  ["/api/profile", (identity, options) => api.profile.post(identity, options)],
  ["/api/shop/getShop", (identity, options) => api.shop.getShop.post(identity, options)],
  [
    "/api/profile/detachDevice",
    (identity, options) => api.profile.detachDevice.post({ ...identity, deviceId: "dev-1" }, options),
  ],
  [
    "/api/profile/getReferralCode",
    (identity, options) => api.profile.getReferralCode.post(identity, options),
  ],
  ["/api/subscriptions/cancel", (identity, options) => api.subscriptions.cancel.post(identity, options)],
  ["/api/subscriptions/resume", (identity, options) => api.subscriptions.resume.post(identity, options)],
];

const alice = await signIn(app, "alice@example.com");
const bob = await signIn(app, "bob@example.com");
await fixture(app, { email: "bob@example.com", status: "ACTIVE", devices: 1 });

describe("customer calls require the customer's own session", () => {
  test.each(customerRoutes)("%s without a session is 401", async (_, call) => {
    const answer = await call(identityOf(alice));
    expect(answer.status).toBe(401);
    expect(answer.error?.value).toEqual({
      success: false,
      error: { code: "sign_in_required", message: "Please sign in to continue." },
    });
  });

  test.each(customerRoutes)("%s with a made-up session is 401", async (_, call) => {
    const answer = await call(identityOf(alice), { headers: { cookie: "kannt_session=abc.def" } });
    expect(answer.status).toBe(401);
  });

  test.each(customerRoutes)("%s for another customer's e-mail is 403", async (_, call) => {
    const answer = await call({ email: bob.email }, sessionOf(alice));
    expect(answer.status).toBe(403);
    expect(answer.error?.value).toEqual({
      success: false,
      error: {
        code: "another_account",
        message: "This request is for another account. Sign in as that account to continue.",
      },
    });
  });

  test.each(customerRoutes)("%s for another customer's uid is 403", async (_, call) => {
    const answer = await call({ uid: bob.uid, email: alice.email }, sessionOf(alice));
    expect(answer.status).toBe(403);
  });

  test.each(customerRoutes)("%s from another site's page is 403", async (_, call) => {
    const answer = await call(identityOf(alice), {
      headers: { cookie: alice.cookie, origin: "https://evil.example" },
    });
    expect(answer.status).toBe(403);
  });

  test("a refused cross-customer call changes nothing", async () => {
    await api.subscriptions.cancel.post(identityOf(bob), sessionOf(alice));
    await api.profile.detachDevice.post({ ...identityOf(bob), deviceId: "x" }, sessionOf(alice));
    const body = await dataOf(api.profile.post(identityOf(bob), sessionOf(bob)));
    expect(body.userInfo.subscriptionStatus).toBe("ACTIVE");
    expect(body.devices).toHaveLength(1);
  });

  test("the e-mail is compared without regard to case", async () => {
    const answer = await api.profile.post({ uid: alice.uid, email: "ALICE@Example.com" }, sessionOf(alice));
    expect(answer.status).toBe(200);
  });
});

describe("session lifetime", () => {
  test("a session used in its second half is extended; an unused one ends after 30 days", async () => {
    const carol = await signIn(app, "carol@example.com");
    clock.advance(20 * day);
    const cabinet = () => api.profile.post(identityOf(carol), sessionOf(carol));
    const renewed = await cabinet();
    expect(renewed.status).toBe(200);
    expect(renewed.response.headers.getSetCookie().some((line) => line.startsWith("kannt_session="))).toBe(
      true,
    );
    clock.advance(25 * day);
    expect((await cabinet()).status).toBe(200);
    clock.advance(31 * day);
    expect((await cabinet()).status).toBe(401);
  });

  test("logout ends the session on the server", async () => {
    const dave = await signIn(app, "dave@example.com");
    const logout = await api.session.logout.post({}, sessionOf(dave));
    expect(logout.status).toBe(200);
    expect((await api.profile.post(identityOf(dave), sessionOf(dave))).status).toBe(401);
  });

  test.each([
    ["another site's Origin", { origin: "https://evil.example" }],
    ["an opaque Origin (a sandboxed frame)", { origin: "null" }],
    ["a cross-site fetch", { "sec-fetch-site": "cross-site" }],
  ])(
    "logout from %s is refused like every other customer call, and the session stays",
    async (_, headers) => {
      const erin = await signIn(app, `erin.${crypto.randomUUID()}@example.com`);
      const logout = api.session.logout.post({}, { headers: { cookie: erin.cookie, ...headers } });
      const refused = await refusalOf(logout);
      expect(refused.status).toBe(403);
      expect(refused.code).toBe("cross_site_request");
      expect((await logout).response.headers.getSetCookie()).toEqual([]);
      const cabinet = () => api.profile.post(identityOf(erin), sessionOf(erin));
      expect((await cabinet()).status).toBe(200);
      // From the product's own page it still signs out.
      const own = await api.session.logout.post(
        {},
        { headers: { cookie: erin.cookie, origin: "http://localhost", host: "localhost" } },
      );
      expect(own.status).toBe(200);
      expect((await cabinet()).status).toBe(401);
    },
  );
});
