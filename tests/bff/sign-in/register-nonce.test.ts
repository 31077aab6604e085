import { decodeJwt } from "jose";
import { describe, expect, test } from "vitest";
import { apiOf, dataOf, refusalOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { demoToken } from "../../helpers/customers";

const { app } = await makeTestApp();
const api = apiOf(app);

type Token = Awaited<ReturnType<typeof demoToken>>;

const register = (token: Token, extra: { nonce?: string } = {}) =>
  api.register.post({
    uid: token.uid,
    email: token.email,
    photoURL: token.photoURL,
    providerId: token.providerId,
    referralCode: "",
    period: 30,
    tariff: 1,
    credential: token.credential,
    ...extra,
  });

describe("register checks a Google sign-in's nonce (DESIGN §12)", () => {
  test("the demo provider stamps the nonce it was given, and the same nonce in the body signs in", async () => {
    const token = await demoToken(app, "nonce-match@example.com", "google.com", { nonce: "n-0123456789" });
    expect(decodeJwt(token.credential).nonce).toBe("n-0123456789");
    const { status, response } = await register(token, { nonce: "n-0123456789" });
    expect(status).toBe(200);
    expect(response.headers.getSetCookie().some((line) => line.startsWith("kannt_session="))).toBe(true);
  });

  test("another nonce in the body is a 401 that says so, and no session is set", async () => {
    const token = await demoToken(app, "nonce-wrong@example.com", "google.com", { nonce: "n-right" });
    const registered = register(token, { nonce: "n-wrong" });
    const refused = await refusalOf(registered);
    expect(refused.status).toBe(401);
    expect(refused.message).toMatch(/nonce does not match/);
    expect((await registered).response.headers.getSetCookie()).toEqual([]);
  });

  test("a token that carries a nonce is refused when the body sends none", async () => {
    const token = await demoToken(app, "nonce-missing@example.com", "google.com", { nonce: "n-claimed" });
    const refused = await refusalOf(register(token));
    expect(refused.status).toBe(401);
    expect(refused.message).toMatch(/nonce/);
  });

  test("the token call without a nonce keeps its shape and still signs in, but not when the body claims one", async () => {
    // Outside checks call {email, name?, provider?} and register without a nonce.
    const issued = api.dev.idp.token.post({
      email: "nonce-none@example.com",
      name: "None",
      provider: "google.com",
    });
    expect((await issued).status).toBe(200);
    const token = await dataOf(issued);
    expect(Object.keys(token).sort()).toEqual(["credential", "email", "photoURL", "providerId", "uid"]);
    expect(decodeJwt(token.credential).nonce).toBeUndefined();
    expect((await register(token)).status).toBe(200);
    const claimed = await refusalOf(register(token, { nonce: "n-never-asked" }));
    expect(claimed.status).toBe(401);
    expect(claimed.message).toMatch(/nonce/);
  });
});
