import { describe, expect, test } from "vitest";
import { refreshReplayWindowMs } from "../../../bff/modules/operators/tokens";
import { apiOf, dataOf, staffOf } from "../../helpers/api";
import { makeTestApp, postJson } from "../../helpers/app";
import { login, makeOperator, solveCaptcha, tokensFor } from "../../helpers/operators";

// The staff login answers a refusal as plain text with its code in a header (the spec's
// form shows the text as is): those requests are read raw.

const { app, context, clock } = await makeTestApp();
const api = apiOf(app);
const refresh = (refreshToken: string) => api.auth.refreshToken.post({ refreshToken });
const admin = await makeOperator(context, "alice.admin", "admin");
const support = await makeOperator(context, "sam.support", "support");

describe("staff login", () => {
  test("without a captcha is refused with the spec's text", async () => {
    const response = await app.handle(
      postJson("/api/auth/login", { username: admin.username, password: admin.password }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(response.headers.get("x-error-code")).toBe("captcha_not_solved");
    expect(await response.text()).toBe("reCAPTCHA not solved!");
  });

  test("the text is in the operator's language, the code the same in every one", async () => {
    const response = await app.handle(
      postJson(
        "/api/auth/login",
        { username: admin.username, password: admin.password },
        { "accept-language": "ru" },
      ),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get("x-error-code")).toBe("captcha_not_solved");
    expect(await response.text()).toBe("reCAPTCHA не пройдена!");
  });

  test("with a forged captcha is refused", async () => {
    const forged = btoa(
      JSON.stringify({ algorithm: "SHA-256", challenge: "00", number: 1, salt: "x", signature: "00" }),
    );
    const response = await app.handle(postJson("/api/auth/login", { ...admin, captcha: forged }));
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("reCAPTCHA not solved!");
  });

  test("a captcha solution is accepted once", async () => {
    const captcha = await solveCaptcha(app);
    expect((await app.handle(postJson("/api/auth/login", { ...admin, captcha }))).status).toBe(200);
    const replay = await app.handle(postJson("/api/auth/login", { ...admin, captcha }));
    expect(replay.status).toBe(400);
    expect(replay.headers.get("x-error-code")).toBe("captcha_used");
    expect(await replay.text()).toBe("This captcha was already used; solve a new one.");
  });

  test("a wrong password is a 401 whose plain text the form shows", async () => {
    const response = await login(app, admin.username, "not the password at all");
    expect(response.status).toBe(401);
    expect(response.headers.get("x-error-code")).toBe("wrong_credentials");
    expect(await response.text()).toBe("Wrong username or password.");
  });

  test("five wrong passwords for one account from one address slow it down to 429, even with the right password", async () => {
    await makeOperator(context, "target", "support");
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await login(app, "target", `guess-number-${attempt}`, {}, "10.0.0.1")).status).toBe(401);
    }
    const locked = await login(app, "target", "correct horse battery staple", {}, "10.0.0.1");
    expect(locked.status).toBe(429);
    expect(locked.headers.get("x-error-code")).toBe("too_many_sign_ins");
    expect(await locked.text()).toMatch(/^Too many failed sign-ins\. Try again in \d+ minutes?\.$/);
  });

  test("repeated failures from one address slow down to 429 across accounts", async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      expect((await login(app, `nobody${attempt}`, "wrong password", {}, "192.0.2.7")).status).toBe(401);
    }
    expect((await login(app, admin.username, admin.password, {}, "192.0.2.7")).status).toBe(429);
    // Twenty Argon2id checks take long on a loaded machine.
  }, 300_000);
});

describe("refresh tokens", () => {
  test("rotate on every use; reusing a spent one after the replay window revokes the whole family", async () => {
    const first = await tokensFor(app, admin.username, admin.password);
    const rotated = refresh(first.refreshToken);
    expect((await rotated).status).toBe(200);
    const second = await dataOf(rotated);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    clock.advance(refreshReplayWindowMs + 1);
    expect((await refresh(first.refreshToken)).status).toBe(401);
    expect((await refresh(second.refreshToken)).status).toBe(401);
  });

  test("two parallel refreshes with one token both get the same new pair, and the family stands", async () => {
    const first = await tokensFor(app, admin.username, admin.password);
    // No later than the rotation: the window below is counted from here.
    const rotatedBy = clock.now();
    const answers = await Promise.all([1, 2].map(() => refresh(first.refreshToken)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const [one, two] = answers.map((answer) => answer.data);
    expect(two).toEqual(one);
    expect(one?.refreshToken).not.toBe(first.refreshToken);
    // A retry a few seconds later still gets that pair; the new token then rotates normally.
    // The test clock also runs with real time: moved to a second before the window ends,
    // counted from the rotation, so a slow machine cannot carry the retry past it.
    clock.advance(Math.max(0, rotatedBy + refreshReplayWindowMs - 1000 - clock.now()));
    const retried = await refresh(first.refreshToken);
    expect(retried.data).toEqual(one);
    const next = refresh(one?.refreshToken ?? "");
    expect((await next).status).toBe(200);
    const { accessToken } = await dataOf(next);
    const panel = await api.panel.audit.get({ ...staffOf(accessToken), query: { page: 0, size: 20 } });
    expect(panel.status).toBe(200);
  });

  test("a replay is refused once the family was revoked in the window", async () => {
    const first = await tokensFor(app, admin.username, admin.password);
    const rotated = await dataOf(refresh(first.refreshToken));
    await api.auth.logout.post({ refreshToken: rotated.refreshToken });
    expect((await refresh(first.refreshToken)).status).toBe(401);
  });

  test("a sign-in ends 30 days after its password, however often it is refreshed", async () => {
    const world = await makeTestApp();
    const { username, password } = await makeOperator(world.context, "month.long", "support");
    let tokens = await tokensFor(world.app, username, password);
    const signIn = await world.context.database.get<{ created_at: number }>(
      "SELECT MIN(r.created_at) AS created_at FROM refresh_tokens r JOIN operators o ON o.id = r.operator_id WHERE o.username = ?",
      [username],
    );
    const endsAt = Number(signIn?.created_at) + 30 * 24 * 60 * 60 * 1000;
    const worldApi = apiOf(world.app);
    const refresh = (refreshToken: string) => worldApi.auth.refreshToken.post({ refreshToken });
    const panel = (accessToken: string) =>
      worldApi.panel.users.search.post({}, { ...staffOf(accessToken), query: { page: 0, size: 10 } });
    // Refreshed every 12 hours, as an open panel tab keeps doing.
    for (let turn = 0; turn < 59; turn++) {
      world.clock.advance(12 * 60 * 60 * 1000);
      const refreshed = refresh(tokens.refreshToken);
      expect((await refreshed).status, `refresh ${turn}`).toBe(200);
      tokens = await dataOf(refreshed);
    }
    // Five minutes before the end a refresh still works, but its access token ends with
    // the sign-in, not 15 minutes later.
    world.clock.advance(endsAt - 5 * 60_000 - world.clock.now());
    const last = refresh(tokens.refreshToken);
    expect((await last).status).toBe(200);
    tokens = await dataOf(last);
    expect((await panel(tokens.accessToken)).status).toBe(200);
    world.clock.advance(Math.max(0, endsAt - world.clock.now()));
    expect((await panel(tokens.accessToken)).status).toBe(401);
    const late = await refresh(tokens.refreshToken);
    expect(late.status).toBe(401);
    expect(late.error?.value).toEqual({
      success: false,
      error: {
        code: "panel_session_expired",
        message: "Your panel session has expired. Please sign in again.",
      },
    });
    // A new password entry starts a new 30 days.
    const again = await tokensFor(world.app, username, password);
    expect((await refresh(again.refreshToken)).status).toBe(200);
  }, 300_000);

  test("logout ends the session's refresh token", async () => {
    const tokens = await tokensFor(app, admin.username, admin.password);
    await api.auth.logout.post({ refreshToken: tokens.refreshToken });
    expect((await refresh(tokens.refreshToken)).status).toBe(401);
  });
});

describe("panel access", () => {
  type Options = { headers?: Record<string, string> };
  const { panel } = api;
  // The sign-in is checked before the body: an empty one stands in for every call's own.
  const empty = {} as never;
  const panelCalls: [string, (options: Options) => Promise<{ status: number }>][] = [
    [
      "POST /api/panel/users/search",
      (options) =>
        panel.users.search.post(
          {},
          { ...options, query: { page: 0, size: 10, sortBy: "id", emailPart: "a" } },
        ),
    ],
    [
      "POST /api/panel/users/getUserById",
      (options) => panel.users.getUserById.post({}, { ...options, query: { id: 1 } }),
    ],
    [
      "POST /api/panel/checks",
      (options) => panel.checks.post({}, { ...options, query: { userId: 1, page: 0, size: 3 } }),
    ],
    [
      "POST /api/panel/invitations/getInviteesByInviterId",
      (options) =>
        panel.invitations.getInviteesByInviterId.post(
          {},
          { ...options, query: { userId: 1, size: 10, page: 0, sortBy: "created", sortDirection: "DESC" } },
        ),
    ],
    ["POST /api/panel/logs", (options) => panel.logs.post({}, { ...options, query: { userId: 1 } })],
    ["GET /api/panel/promos/promoTypes", (options) => panel.promos.promoTypes.get(options)],
    [
      "GET /api/panel/promos/availablePromos",
      (options) =>
        panel.promos.availablePromos.get({
          ...options,
          query: { page: 0, size: 5, sortBy: "id", sortDirection: "DESC" },
        }),
    ],
    ["POST /api/panel/promos/generatePromo", (options) => panel.promos.generatePromo.post(empty, options)],
    ["POST /api/panel/refund", (options) => panel.refund.post(empty, options)],
    ["GET /api/panel/audit", (options) => panel.audit.get({ ...options, query: { page: 0, size: 20 } })],
  ];

  test.each(panelCalls)("%s refuses a missing token", async (_, call) => {
    expect((await call({})).status).toBe(401);
  });

  test.each(panelCalls)("%s refuses an expired token", async (_, call) => {
    const tokens = await tokensFor(app, admin.username, admin.password);
    context.clock.now();
    const { OffsetClock } = await import("../../../bff/platform/clock");
    if (!(context.clock instanceof OffsetClock)) throw new Error("test clock expected");
    context.clock.advance(16 * 60 * 1000);
    expect((await call(staffOf(tokens.accessToken))).status).toBe(401);
  });

  test("support staff may read but are refused refunds and promo creation (403)", async () => {
    const tokens = await tokensFor(app, support.username, support.password);
    const asSupport = staffOf(tokens.accessToken);
    const read = await api.panel.users.search.post(
      {},
      { ...asSupport, query: { page: 0, size: 10, emailPart: "" } },
    );
    expect(read.status).toBe(200);
    const refund = await api.panel.refund.post({ email: "x@example.com" }, asSupport);
    expect(refund.status).toBe(403);
    const promo = await api.panel.promos.generatePromo.post(
      {
        promoCode: "SUPPORT1",
        promoType: "DISCOUNT",
        isAvailable: true,
        discount: 0.2,
        expirationDate: "2030-01-01",
      },
      asSupport,
    );
    expect(promo.status).toBe(403);
    const types = await api.panel.promos.promoTypes.get(asSupport);
    expect(types.data).toEqual([]);
    const audit = await api.panel.audit.get({ ...asSupport, query: { page: 0, size: 20 } });
    expect(audit.status).toBe(403);
  });
});
