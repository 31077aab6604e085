import { describe, expect, test } from "vitest";
import { makeTestApp, postJson, request } from "../../helpers/app";
import { asCustomer, demoToken, signIn } from "../../helpers/customers";
import { nodeHeaders, sampleReport } from "../../helpers/nodes";
import { bearer, makeOperator, tokensFor } from "../../helpers/operators";

const { app, context } = await makeTestApp();
const customer = await signIn(app, "inputs@example.com");
const admin = await makeOperator(context, "inputs.admin", "admin");
const { accessToken } = await tokensFor(app, admin.username, admin.password);
const node = await nodeHeaders(context, "inputs-node");

describe("bodies over 64 KB", () => {
  test("are refused with 413 from the declared length, before the body is read", async () => {
    let pulled = 0;
    // A body that counts what is read of it: a refusal before reading pulls (almost) nothing.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 2000) controller.close();
        else controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const response = await app.handle(
      request("/api/register", {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(100 * 1024 * 1024) },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/64 KB/);
    expect(pulled).toBeLessThan(3);
  });

  test("a body just under the limit is read as usual", async () => {
    const response = await app.handle(
      postJson(
        "/api/profile",
        { uid: customer.uid, email: customer.email, padding: "x".repeat(60_000) },
        {
          cookie: customer.cookie,
        },
      ),
    );
    expect(response.status).toBe(200);
  });
});

describe("control characters and bidi overrides in free text are refused with 400", () => {
  const bad = [
    "nul\u0000byte",
    "bell\u0007",
    "line\nbreak",
    "del\u007f",
    "c1\u0085",
    "rtl\u202eexe.jpg",
    "isolate\u2066x",
  ];

  test.each(bad)("a device name %j", async (deviceName) => {
    const response = await app.handle(
      asCustomer(customer, "/api/devices/activate", { deviceId: "dev-1", deviceName, platform: "android" }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /control character|direction mark/,
    );
  });

  test.each(bad)("a device id to connect or rotate %j", async (deviceId) => {
    for (const path of ["/api/profile/devices/connect", "/api/profile/devices/resetLink"]) {
      const response = await app.handle(asCustomer(customer, path, { deviceId }));
      expect(response.status, path).toBe(400);
    }
  });

  test.each(bad)("a node's host in its report %j", async (host) => {
    const response = await app.handle(postJson("/api/nodes/report", { ...sampleReport, host }, node));
    expect(response.status).toBe(400);
  });

  test.each(bad)("an e-mail at sign-in %j", async (email) => {
    const token = await demoToken(app, "clean@example.com");
    const response = await app.handle(
      postJson("/api/register", { ...token, email: `a${email}@example.com`, credential: token.credential }),
    );
    expect(response.status).toBe(400);
  });

  test.each(bad)("a name at the demo provider %j", async (name) => {
    const response = await app.handle(postJson("/api/dev/idp/token", { email: "n@example.com", name }));
    expect(response.status).toBe(400);
  });

  test.each(bad)("a promo code in the cabinet %j", async (promoCode) => {
    const response = await app.handle(asCustomer(customer, "/api/shop/applyPromo", { promoCode }));
    expect(response.status).toBe(400);
  });

  test.each(bad)("a referral code at sign-in %j", async (referralCode) => {
    const token = await demoToken(app, "referred@example.com");
    const response = await app.handle(
      postJson("/api/register", { ...token, referralCode, credential: token.credential }),
    );
    expect(response.status).toBe(400);
  });

  test.each(bad)("a panel search term %j", async (term) => {
    const response = await app.handle(
      request(`/api/panel/users/search?page=0&size=10&emailPart=${encodeURIComponent(term)}`, {
        method: "POST",
        headers: bearer(accessToken),
      }),
    );
    expect(response.status).toBe(400);
  });

  test.each(bad)("a new promo code in the panel %j", async (promoCode) => {
    const response = await app.handle(
      postJson(
        "/api/panel/promos/generatePromo",
        { promoCode, promoType: "DISCOUNT", isAvailable: true, discount: 0.2, expirationDate: "2030-01-01" },
        bearer(accessToken),
      ),
    );
    expect(response.status).toBe(400);
  });

  test.each(bad)("a staff username %j", async (username) => {
    const response = await app.handle(
      postJson("/api/auth/login", { username, password: "whatever", captcha: "x" }),
    );
    expect(response.status).toBe(400);
  });

  test("ordinary text in every script and emoji is fine", async () => {
    const response = await app.handle(
      asCustomer(customer, "/api/devices/activate", {
        deviceId: "dev-ok",
        deviceName: "Телефон Анны 📱 手机 Қазақ",
        platform: "android",
      }),
    );
    expect(response.status).not.toBe(400);
  });
});
