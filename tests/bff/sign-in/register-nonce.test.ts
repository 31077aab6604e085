import { decodeJwt } from "jose";
import { describe, expect, test } from "vitest";
import { makeTestApp, postJson } from "../../helpers/app";
import { demoToken } from "../../helpers/customers";

const { app } = await makeTestApp();

type Token = Awaited<ReturnType<typeof demoToken>>;

const register = (token: Token, extra: Record<string, unknown> = {}) =>
  app.handle(
    postJson("/api/register", {
      uid: token.uid,
      email: token.email,
      photoURL: token.photoURL,
      providerId: token.providerId,
      referralCode: "",
      period: 30,
      tariff: 1,
      credential: token.credential,
      ...extra,
    }),
  );

const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string } }).error;

describe("register checks a Google sign-in's nonce (DESIGN §12)", () => {
  test("the demo provider stamps the nonce it was given, and the same nonce in the body signs in", async () => {
    const token = await demoToken(app, "nonce-match@example.com", "google.com", { nonce: "n-0123456789" });
    expect(decodeJwt(token.credential).nonce).toBe("n-0123456789");
    const response = await register(token, { nonce: "n-0123456789" });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((line) => line.startsWith("kannt_session="))).toBe(true);
  });

  test("another nonce in the body is a 401 that says so, and no session is set", async () => {
    const token = await demoToken(app, "nonce-wrong@example.com", "google.com", { nonce: "n-right" });
    const response = await register(token, { nonce: "n-wrong" });
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toMatch(/nonce does not match/);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  test("a token that carries a nonce is refused when the body sends none", async () => {
    const token = await demoToken(app, "nonce-missing@example.com", "google.com", { nonce: "n-claimed" });
    const response = await register(token);
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toMatch(/nonce/);
  });

  test("the token call without a nonce keeps its shape and still signs in, but not when the body claims one", async () => {
    // Outside checks call {email, name?, provider?} and register without a nonce.
    const issued = await app.handle(
      postJson("/api/dev/idp/token", {
        email: "nonce-none@example.com",
        name: "None",
        provider: "google.com",
      }),
    );
    expect(issued.status).toBe(200);
    const token = (await issued.json()) as Token;
    expect(Object.keys(token).sort()).toEqual(["credential", "email", "photoURL", "providerId", "uid"]);
    expect(decodeJwt(token.credential).nonce).toBeUndefined();
    expect((await register(token)).status).toBe(200);
    const claimed = await register(token, { nonce: "n-never-asked" });
    expect(claimed.status).toBe(401);
    expect((await errorOf(claimed)).message).toMatch(/nonce/);
  });
});
