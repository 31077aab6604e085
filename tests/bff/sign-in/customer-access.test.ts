import { describe, expect, test } from "vitest";
import { makeTestApp, postJson } from "../../helpers/app";
import { asCustomer, fixture, signIn } from "../../helpers/customers";

const { app, clock } = await makeTestApp();
const day = 24 * 60 * 60 * 1000;

/** Every customer call, with the extra body fields it needs. */
const customerRoutes: [string, Record<string, unknown>][] = [
  ["/api/profile", {}],
  ["/api/shop/getShop", {}],
  ["/api/profile/detachDevice", { deviceId: "dev-1" }],
  ["/api/profile/getReferralCode", {}],
  ["/api/subscriptions/cancel", {}],
  ["/api/subscriptions/resume", {}],
];

const alice = await signIn(app, "alice@example.com");
const bob = await signIn(app, "bob@example.com");
await fixture(app, { email: "bob@example.com", status: "ACTIVE", devices: 1 });

describe("customer calls require the customer's own session", () => {
  test.each(customerRoutes)("%s without a session is 401", async (path, extra) => {
    const response = await app.handle(postJson(path, { uid: alice.uid, email: alice.email, ...extra }));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      success: false,
      error: { code: "sign_in_required", message: "Please sign in to continue." },
    });
  });

  test.each(customerRoutes)("%s with a made-up session is 401", async (path, extra) => {
    const response = await app.handle(
      postJson(path, { uid: alice.uid, email: alice.email, ...extra }, { cookie: "kannt_session=abc.def" }),
    );
    expect(response.status).toBe(401);
  });

  test.each(customerRoutes)("%s for another customer's e-mail is 403", async (path, extra) => {
    const response = await app.handle(
      asCustomer(alice, path, { uid: undefined, email: bob.email, ...extra }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      success: false,
      error: {
        code: "another_account",
        message: "This request is for another account. Sign in as that account to continue.",
      },
    });
  });

  test.each(customerRoutes)("%s for another customer's uid is 403", async (path, extra) => {
    const response = await app.handle(asCustomer(alice, path, { uid: bob.uid, ...extra }));
    expect(response.status).toBe(403);
  });

  test.each(customerRoutes)("%s from another site's page is 403", async (path, extra) => {
    const response = await app.handle(
      postJson(
        path,
        { uid: alice.uid, email: alice.email, ...extra },
        { cookie: alice.cookie, origin: "https://evil.example" },
      ),
    );
    expect(response.status).toBe(403);
  });

  test("a refused cross-customer call changes nothing", async () => {
    await app.handle(asCustomer(alice, "/api/subscriptions/cancel", { uid: bob.uid, email: bob.email }));
    await app.handle(
      asCustomer(alice, "/api/profile/detachDevice", { uid: bob.uid, email: bob.email, deviceId: "x" }),
    );
    const profile = await app.handle(asCustomer(bob, "/api/profile"));
    const body = (await profile.json()) as { userInfo: { subscriptionStatus: string }; devices: unknown[] };
    expect(body.userInfo.subscriptionStatus).toBe("ACTIVE");
    expect(body.devices).toHaveLength(1);
  });

  test("the e-mail is compared without regard to case", async () => {
    const response = await app.handle(asCustomer(alice, "/api/profile", { email: "ALICE@Example.com" }));
    expect(response.status).toBe(200);
  });
});

describe("session lifetime", () => {
  test("a session used in its second half is extended; an unused one ends after 30 days", async () => {
    const carol = await signIn(app, "carol@example.com");
    clock.advance(20 * day);
    const renewed = await app.handle(asCustomer(carol, "/api/profile"));
    expect(renewed.status).toBe(200);
    expect(renewed.headers.getSetCookie().some((line) => line.startsWith("kannt_session="))).toBe(true);
    clock.advance(25 * day);
    expect((await app.handle(asCustomer(carol, "/api/profile"))).status).toBe(200);
    clock.advance(31 * day);
    expect((await app.handle(asCustomer(carol, "/api/profile"))).status).toBe(401);
  });

  test("logout ends the session on the server", async () => {
    const dave = await signIn(app, "dave@example.com");
    const logout = await app.handle(postJson("/api/session/logout", {}, { cookie: dave.cookie }));
    expect(logout.status).toBe(200);
    expect((await app.handle(asCustomer(dave, "/api/profile"))).status).toBe(401);
  });

  test.each([
    ["another site's Origin", { origin: "https://evil.example" }],
    ["an opaque Origin (a sandboxed frame)", { origin: "null" }],
    ["a cross-site fetch", { "sec-fetch-site": "cross-site" }],
  ])(
    "logout from %s is refused like every other customer call, and the session stays",
    async (_, headers) => {
      const erin = await signIn(app, `erin.${crypto.randomUUID()}@example.com`);
      const logout = await app.handle(
        postJson("/api/session/logout", {}, { cookie: erin.cookie, ...headers }),
      );
      expect(logout.status).toBe(403);
      expect(((await logout.json()) as { error: { code: string } }).error.code).toBe("cross_site_request");
      expect(logout.headers.getSetCookie()).toEqual([]);
      expect((await app.handle(asCustomer(erin, "/api/profile"))).status).toBe(200);
      // From the product's own page it still signs out.
      const own = await app.handle(
        postJson(
          "/api/session/logout",
          {},
          { cookie: erin.cookie, origin: "http://localhost", host: "localhost" },
        ),
      );
      expect(own.status).toBe(200);
      expect((await app.handle(asCustomer(erin, "/api/profile"))).status).toBe(401);
    },
  );
});
