import { describe, expect, test } from "vitest";
import { cancelLinkLimit } from "../../../bff/modules/subscriptions/cancel-link";
import { signCancelToken } from "../../../bff/modules/subscriptions/cancel-token";
import { withPeerAddress } from "../../../bff/platform/client-address";
import { apiOf, dataOf, identityOf, sessionOf, staffOf } from "../../helpers/api";
import { makeTestApp, postJson } from "../../helpers/app";
import { type Fixture, fixture, type SignedIn, signIn } from "../../helpers/customers";
import { advanceDays } from "../../helpers/payments";

// DESIGN §14: the cancel link of a renewal notice opens that account's cancel screen
// and cancels it, for 7 days, and does nothing else.

type Answer = { status: number; body: Record<string, unknown>; setCookie: string[] };

async function makeWorld() {
  const made = await makeTestApp();
  const { app, context } = made;
  let addressCounter = 0;
  /** A customer with an ACTIVE (or given) subscription, signed in, and a cancel token for it. */
  const customer = async (email: string, status: Fixture["status"] = "ACTIVE") => {
    const { userId } = await fixture(app, { email, status });
    const session = await signIn(app, email);
    return {
      ...session,
      userId,
      token: signCancelToken(context.config.jwtSecret, userId, context.clock.now()),
    };
  };
  /**
   * Each call from its own address unless told, so the wrong-token limit stays out of the
   * way. Raw, as the address is the socket's, which the typed client cannot set.
   */
  const call = async (
    path: "/api/subscriptions/cancel-link" | "/api/subscriptions/cancel-link/cancel",
    body: unknown,
    headers: Record<string, string> = {},
    address = `198.51.100.${++addressCounter % 250}`,
  ): Promise<Answer> => {
    const response = await app.handle(withPeerAddress(postJson(path, body, headers), address));
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      setCookie: response.headers.getSetCookie(),
    };
  };
  const open = (token: unknown, headers?: Record<string, string>, address?: string) =>
    call("/api/subscriptions/cancel-link", { token }, headers, address);
  const cancel = (body: unknown, headers?: Record<string, string>, address?: string) =>
    call("/api/subscriptions/cancel-link/cancel", body, headers, address);
  const profileOf = async (who: SignedIn) =>
    (await dataOf(apiOf(app).profile.post(identityOf(who), sessionOf(who)))).userInfo;
  return { ...made, customer, open, cancel, profileOf };
}

const { app, context, customer, open, cancel, profileOf } = await makeWorld();
const api = apiOf(app);
const secret = context.config.jwtSecret;
const messageOf = (answer: Answer) => (answer.body.error as { message: string } | undefined)?.message ?? "";

describe("a valid cancel link", () => {
  test("opens the screen of the account it names with its e-mail and state, and nothing else", async () => {
    const alice = await customer("alice.link@example.com");
    const answer = await open(alice.token);
    expect(answer.status).toBe(200);
    const profile = await profileOf(alice);
    expect(answer.body).toEqual({
      success: true,
      email: "alice.link@example.com",
      status: "ACTIVE",
      subscriptionIsActive: true,
      endDate: profile.expirationDate,
    });
    expect(answer.setCookie).toEqual([]);
  });

  test("cancels that account exactly like the cabinet: access stays to the end of the period, renewal stops", async () => {
    const bob = await customer("bob.link@example.com");
    const before = await profileOf(bob);
    const answer = await cancel({ token: bob.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      success: true,
      subscriptionStatus: "CANCELED",
      expirationDate: before.expirationDate,
    });
    expect(answer.setCookie).toEqual([]);
    expect(await profileOf(bob)).toMatchObject({
      subscriptionStatus: "CANCELED",
      subscriptionIsActive: true,
      expirationDate: before.expirationDate,
      nextTransactionDate: null,
    });
    // The same answer as the cabinet's cancel gives.
    const carol = await customer("carol.link@example.com");
    const cabinet = await dataOf(api.subscriptions.cancel.post(identityOf(carol), sessionOf(carol)));
    expect(Object.keys(cabinet).sort()).toEqual(Object.keys(answer.body).sort());
    // The screen, opened again, shows the cancelled state.
    expect((await open(bob.token)).body).toMatchObject({ status: "CANCELED", subscriptionIsActive: true });
  });

  test("cancels only the account it names, whatever account the body names besides", async () => {
    const dave = await customer("dave.link@example.com");
    const erin = await customer("erin.link@example.com");
    const answer = await cancel({ token: dave.token, email: erin.email, uid: erin.uid });
    expect(answer.status).toBe(200);
    expect((await profileOf(dave)).subscriptionStatus).toBe("CANCELED");
    expect((await profileOf(erin)).subscriptionStatus).toBe("ACTIVE");
    // Erin's payload with Dave's signature is a forgery.
    const [, daveSignature] = dave.token.split(".");
    const [erinPayload] = erin.token.split(".");
    expect((await cancel({ token: `${erinPayload}.${daveSignature}` })).status).toBe(401);
    expect((await profileOf(erin)).subscriptionStatus).toBe("ACTIVE");
  });

  test("an already cancelled subscription answers 409 and says until when access runs", async () => {
    const frank = await customer("frank.link@example.com", "CANCELED");
    const { expirationDate } = await profileOf(frank);
    const year = new Date(String(expirationDate)).getUTCFullYear();
    expect((await open(frank.token)).body).toMatchObject({ status: "CANCELED", subscriptionIsActive: true });
    const answer = await cancel({ token: frank.token });
    expect(answer.status).toBe(409);
    expect(messageOf(answer)).toMatch(new RegExp(`already cancelled.*until .*${year}`));
    const inRussian = await cancel({ token: frank.token }, { "accept-language": "ru-RU,ru;q=0.9" });
    expect(messageOf(inRussian)).toMatch(new RegExp(`уже отменена.*до .*${year}`));
    expect((await profileOf(frank)).subscriptionStatus).toBe("CANCELED");
  });

  test("an account without a running subscription answers 409: nothing to cancel", async () => {
    for (const [email, status] of [
      ["gina.link@example.com", "EXPIRED"],
      ["hugo.link@example.com", "NOT_ACTIVE"],
      ["ivan.link@example.com", "CANCELED_OVER"],
    ] as const) {
      const who = await customer(email, status);
      expect((await open(who.token)).body).toMatchObject({ subscriptionIsActive: false });
      const answer = await cancel({ token: who.token });
      expect(answer.status, email).toBe(409);
      expect(messageOf(answer)).toMatch(/no active subscription/);
    }
  });
});

describe("a link that is not valid gets 401 and a message a person understands", () => {
  const refusals = async (token: unknown) => [(await open(token)).status, (await cancel({ token })).status];

  test("tampered, foreign-key, unknown-account, garbage and overlong tokens", async () => {
    const judy = await customer("judy.link@example.com");
    const [payload = "", signature = ""] = judy.token.split(".");
    const flipped = `${signature.slice(0, -2)}${signature.at(-2) === "A" ? "B" : "A"}${signature.at(-1)}`;
    const longer = Buffer.from(JSON.stringify({ u: judy.userId, e: context.clock.now() + 365 * 86_400_000 }));
    const bad = {
      "tampered signature": `${payload}.${flipped}`,
      "tampered payload": `${longer.toString("base64url")}.${signature}`,
      "signed with another key": signCancelToken(
        "another-secret-that-is-long-enough-00000",
        judy.userId,
        Date.now(),
      ),
      "unknown account": signCancelToken(secret, 987_654, context.clock.now()),
      "no signature": payload,
      "two dots": `${judy.token}.x`,
      garbage: "garbage",
      empty: "",
      "padding and spaces": ` ${judy.token} `,
      overlong: `${payload}.${signature}${"A".repeat(20_000)}`,
    };
    for (const [label, token] of Object.entries(bad))
      expect(await refusals(token), label).toEqual([401, 401]);
    const answer = await open("garbage");
    expect(answer.body).toEqual({
      success: false,
      error: {
        code: "cancel_link_invalid",
        message:
          "This cancel link is invalid or has expired (a link works for 7 days). Sign in to your personal cabinet to cancel your subscription there.",
      },
    });
    expect(answer.setCookie).toEqual([]);
    expect((await profileOf(judy)).subscriptionStatus).toBe("ACTIVE");
  });

  test("the link of an account deleted since it was sent opens nothing and cancels nothing", async () => {
    const gone = await customer("gone.link@example.com");
    expect((await open(gone.token)).status).toBe(200);
    const deleted = await api.profile.delete.post({ ...identityOf(gone), confirm: true }, sessionOf(gone));
    expect(deleted.status).toBe(200);
    const opened = await open(gone.token);
    const cancelled = await cancel({ token: gone.token });
    expect([opened.status, cancelled.status]).toEqual([401, 401]);
    // Read exactly as a bad token: nothing tells a holder of the link the account existed.
    expect(opened.body).toEqual((await open("garbage")).body);
    expect(cancelled.body).toEqual((await cancel({ token: "garbage" })).body);
    expect(JSON.stringify(opened.body)).not.toContain("gone.link");
  });

  test("the message is in the visitor's language", async () => {
    expect(messageOf(await open("x", { "accept-language": "ru" }))).toMatch(/недействительна или устарела/);
    expect(messageOf(await open("x", { cookie: "i18next=kk" }))).toMatch(/жарамсыз/);
    expect(messageOf(await open("x", { "accept-language": "zh-CN" }))).toMatch(/无效或已过期/);
  });

  test("a token that is not a string is a malformed request", async () => {
    expect((await open(42)).status).toBe(400);
    expect((await cancel({})).status).toBe(400);
  });
});

describe("the token is good for the cancel screen only", () => {
  test("it is no customer session and no panel bearer token", async () => {
    const kate = await customer("kate.link@example.com");
    const linkAsSession = { headers: { cookie: `kannt_session=${kate.token}` } };
    const asSession = await api.profile.post(identityOf(kate), linkAsSession);
    expect(asSession.status).toBe(401);
    const asCancel = await api.subscriptions.cancel.post({ email: kate.email }, linkAsSession);
    expect(asCancel.status).toBe(401);
    const asOperator = await api.panel.users.search.post(
      {},
      { ...staffOf(kate.token), query: { emailPart: "kate" } },
    );
    expect(asOperator.status).toBe(401);
    expect((await profileOf(kate)).subscriptionStatus).toBe("ACTIVE");
  });

  test("another site's page cannot cancel with it", async () => {
    const leo = await customer("leo.link@example.com");
    const answer = await cancel(
      { token: leo.token },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    expect(answer.status).toBe(403);
    expect((await profileOf(leo)).subscriptionStatus).toBe("ACTIVE");
  });
});

describe("expiry by the test clock", () => {
  test("a link works for 7 days and not after", async () => {
    const world = await makeWorld();
    const mia = await world.customer("mia.link@example.com");
    await advanceDays(world.app, 6.9);
    expect((await world.open(mia.token)).status).toBe(200);
    await advanceDays(world.app, 0.11);
    const answer = await world.open(mia.token);
    expect(answer.status).toBe(401);
    expect(messageOf(answer)).toMatch(/invalid or has expired/);
    expect((await world.cancel({ token: mia.token })).status).toBe(401);
    expect((await world.profileOf(mia)).subscriptionStatus).toBe("ACTIVE");
  });
});

describe("probing tokens at speed", () => {
  test(`${cancelLinkLimit} wrong tokens from one address in an hour, then 429 there, also for a good token`, async () => {
    const world = await makeWorld();
    const nina = await world.customer("nina.link@example.com");
    const prober = "203.0.113.7";
    // Good tokens never use the limit up.
    for (let index = 0; index < cancelLinkLimit + 5; index++)
      expect((await world.open(nina.token, {}, prober)).status).toBe(200);
    for (let index = 0; index < cancelLinkLimit; index++)
      expect((await world.open(`guess-${index}`, {}, prober)).status).toBe(401);
    const blocked = await world.open("guess-more", {}, prober);
    expect(blocked.status).toBe(429);
    expect(messageOf(blocked)).toMatch(/Too many invalid cancel links.*minutes/);
    expect((await world.cancel({ token: nina.token }, {}, prober)).status).toBe(429);
    // Another address is not affected, and an hour later the prober may try again.
    expect((await world.open(nina.token, {}, "203.0.113.8")).status).toBe(200);
    await advanceDays(world.app, 1 / 24);
    expect((await world.cancel({ token: nina.token }, {}, prober)).status).toBe(200);
  });
});
