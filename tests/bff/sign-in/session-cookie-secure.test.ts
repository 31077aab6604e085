import { describe, expect, test } from "vitest";
import { apiOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { demoToken } from "../../helpers/customers";

type App = Awaited<ReturnType<typeof makeTestApp>>["app"];

/** The Set-Cookie line of a sign-in made with these request headers. */
async function sessionCookieLine(app: App, email: string, headers: Record<string, string>) {
  const token = await demoToken(app, email);
  const { status, response } = await apiOf(app).register.post(
    {
      uid: token.uid,
      email: token.email,
      photoURL: token.photoURL,
      providerId: token.providerId,
      referralCode: "",
      period: 30,
      tariff: 1,
      credential: token.credential,
    },
    { headers },
  );
  expect(status).toBe(200);
  const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith("kannt_session="));
  expect(line).toBeDefined();
  return line ?? "";
}

const isSecure = (line: string) => line.split(";").some((part) => part.trim().toLowerCase() === "secure");

describe("the session cookie is Secure exactly when PUBLIC_URL is https", () => {
  test("an https PUBLIC_URL makes it Secure whatever X-Forwarded-Proto says", async () => {
    const { app } = await makeTestApp({ PUBLIC_URL: "https://kannt.example" });
    const variants: Record<string, string>[] = [
      {},
      { "x-forwarded-proto": "http" },
      { "x-forwarded-proto": "https" },
      { "x-forwarded-proto": "HTTPS" },
    ];
    for (const [index, headers] of variants.entries()) {
      expect(isSecure(await sessionCookieLine(app, `secure-${index}@example.com`, headers))).toBe(true);
    }
  });

  test("an http PUBLIC_URL never makes it Secure, whatever X-Forwarded-Proto says", async () => {
    const { app } = await makeTestApp({ PUBLIC_URL: "http://localhost:3000" });
    const variants: Record<string, string>[] = [{}, { "x-forwarded-proto": "https" }];
    for (const [index, headers] of variants.entries()) {
      expect(isSecure(await sessionCookieLine(app, `plain-${index}@example.com`, headers))).toBe(false);
    }
  });
});
