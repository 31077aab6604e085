import { describe, expect, test } from "vitest";
import { refreshReplayWindowMs } from "../../../bff/modules/operators/tokens";
import { withPeerAddress } from "../../../bff/platform/client-address";
import { apiOf, dataOf, staffOf } from "../../helpers/api";
import { makeTestApp, postJson } from "../../helpers/app";
import { login, makeOperator, solveCaptcha, tokensFor } from "../../helpers/operators";

const { app, context, clock } = await makeTestApp();
const api = apiOf(app);

// A login is sent raw: the server sees its socket peer, and a refusal is plain text.
const loginWith = (body: Record<string, unknown>, address = "127.0.0.1", headers = {}) =>
  app.handle(withPeerAddress(postJson("/api/auth/login", body, headers), address));

const panelSearch = (accessToken: string) =>
  api.panel.users.search.post({}, { ...staffOf(accessToken), query: { page: 0, size: 10, emailPart: "" } });
const refresh = (refreshToken: string) => api.auth.refreshToken.post({ refreshToken });

describe("a captcha is spent by its challenge", () => {
  const decode = (solution: string) => JSON.parse(atob(solution)) as Record<string, unknown>;
  const reencodings: [string, (solution: string) => string][] = [
    ["without base64 padding", (solution) => solution.replace(/=+$/, "")],
    [
      "with the JSON keys in another order",
      (solution) => btoa(JSON.stringify(Object.fromEntries(Object.entries(decode(solution)).reverse()))),
    ],
    [
      "with the number as a string",
      (solution) => btoa(JSON.stringify({ ...decode(solution), number: String(decode(solution).number) })),
    ],
    ["with an extra field", (solution) => btoa(JSON.stringify({ ...decode(solution), again: true }))],
    ["with whitespace in the JSON", (solution) => btoa(JSON.stringify(decode(solution), null, 2))],
    [
      "with the signature in upper case",
      (solution) => {
        const payload = decode(solution);
        return btoa(JSON.stringify({ ...payload, signature: String(payload.signature).toUpperCase() }));
      },
    ],
  ];

  test.each(reencodings)("a used solution re-encoded %s is refused", async (_, reencode) => {
    const operator = await makeOperator(
      context,
      `captcha.${Math.random().toString(36).slice(2, 10)}`,
      "support",
    );
    const captcha = await solveCaptcha(app);
    expect((await loginWith({ ...operator, captcha })).status).toBe(200);
    const replay = await loginWith({ ...operator, captcha: reencode(captcha) });
    expect(replay.status).toBe(400);
    expect(await replay.text()).toMatch(/already used|reCAPTCHA not solved!/);
  });

  test("the default proof of work is a meaningful cost, not a formality", async () => {
    const { loadConfig } = await import("../../../bff/platform/config");
    const config = loadConfig({ DATABASE_PATH: ":memory:", JWT_SECRET: "x".repeat(40) });
    expect(config.altchaMaxNumber).toBeGreaterThanOrEqual(200_000);
    const { app: defaultApp } = await makeTestApp({ ALTCHA_MAX_NUMBER: String(config.altchaMaxNumber) });
    const challenge = await dataOf(apiOf(defaultApp).auth.captcha.get());
    expect(challenge).toMatchObject({ provider: "altcha", maxnumber: config.altchaMaxNumber });
  });
});

describe("the login limits hold whatever the concurrency", () => {
  test("50 parallel wrong passwords with distinct solved captchas: at most 5 are evaluated", async () => {
    await makeOperator(context, "parallel.target", "admin");
    const captchas = await Promise.all(Array.from({ length: 50 }, () => solveCaptcha(app)));
    const responses = await Promise.all(
      captchas.map((captcha, index) =>
        loginWith({ username: "parallel.target", password: `wrong guess ${index}`, captcha }, "198.51.100.1"),
      ),
    );
    const statuses = responses.map((response) => response.status);
    const evaluated = statuses.filter((status) => status === 401).length;
    expect(evaluated).toBeGreaterThan(0);
    expect(evaluated).toBeLessThanOrEqual(5);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    // Those turned away were not evaluated and not counted: the address gets exactly
    // five wrong passwords in all, then the cool-down, even for the right one.
    let total = evaluated;
    for (let attempt = 0; attempt < 10; attempt++) {
      const status = (await login(app, "parallel.target", `late guess ${attempt}`, {}, "198.51.100.1"))
        .status;
      if (status !== 401) break;
      total++;
    }
    expect(total).toBe(5);
    const right = await login(app, "parallel.target", "correct horse battery staple", {}, "198.51.100.1");
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("a client-sent X-Forwarded-For does not buy fresh attempts", async () => {
    await makeOperator(context, "spoof.target", "support");
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await login(app, "spoof.target", `guess ${attempt}`, {
        "x-forwarded-for": `203.0.113.${attempt}`,
      });
      expect(response.status).toBe(401);
    }
    const sixth = await login(app, "spoof.target", "guess 6", { "x-forwarded-for": "203.0.113.200" });
    expect(sixth.status).toBe(429);
  });

  test("50 wrong passwords for one account from many addresses lock the account", async () => {
    await makeOperator(context, "spread.target", "support");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 51; attempt++) {
      // Ten addresses, five guesses each: no address reaches its own limit first.
      const address = `100.64.${Math.floor(attempt / 5)}.1`;
      statuses.push((await login(app, "spread.target", `guess ${attempt}`, {}, address)).status);
    }
    expect(statuses.slice(0, 50).every((status) => status === 401)).toBe(true);
    expect(statuses[50]).toBe(429);
    // 51 Argon2id checks: 8 s on a quiet machine, 90 s (SQLite) to 210 s (PostgreSQL) on
    // one busy with other runs.
  }, 900_000);

  test("a right password does not use up the address's attempts", async () => {
    const operator = await makeOperator(context, "often.right", "support");
    for (let attempt = 0; attempt < 8; attempt++) {
      expect((await login(app, operator.username, operator.password, {}, "192.0.2.55")).status).toBe(200);
    }
  });

  test("more than two password checks at once: the rest are turned away at once with 429", async () => {
    const { app: busyApp, context: busyContext } = await makeTestApp();
    const operators = await Promise.all(
      Array.from({ length: 6 }, (_, index) => makeOperator(busyContext, `busy.${index}`, "support")),
    );
    const captchas = await Promise.all(operators.map(() => solveCaptcha(busyApp)));
    // Count the password checks in flight, and hold each until the other logins have been
    // answered (or a minute passes, should they never be), so the six truly overlap however
    // busy the machine is: a check that finished early would free its slot and let a third in.
    const verify = Bun.password.verify;
    let inFlight = 0;
    let mostAtOnce = 0;
    let answered = 0;
    let releaseChecks = () => {};
    const checksReleased = new Promise<void>((resolve) => {
      releaseChecks = resolve;
      setTimeout(resolve, 60_000);
    });
    Bun.password.verify = async (...args: Parameters<typeof verify>) => {
      inFlight++;
      mostAtOnce = Math.max(mostAtOnce, inFlight);
      try {
        await checksReleased;
        return await verify(...args);
      } finally {
        inFlight--;
      }
    };
    let responses: Response[];
    try {
      responses = await Promise.all(
        operators.map(async (operator, index) => {
          const response = await busyApp.handle(
            withPeerAddress(
              postJson("/api/auth/login", { ...operator, captcha: captchas[index] }),
              `198.18.0.${index + 1}`,
            ),
          );
          if (++answered === operators.length - 2) releaseChecks();
          return response;
        }),
      );
    } finally {
      Bun.password.verify = verify;
    }
    const statuses = responses.map((response) => response.status);
    expect(mostAtOnce).toBe(2);
    expect(statuses.filter((status) => status === 200).length).toBe(2);
    const busy = responses.filter((response) => response.status === 429);
    expect(busy.length).toBe(4);
    expect(await busy[0]?.text()).toMatch(/busy/);
    // Those turned away were not counted: each can sign in right after.
    for (const [index, operator] of operators.entries()) {
      if (statuses[index] !== 429) continue;
      const again = await busyApp.handle(
        withPeerAddress(
          postJson("/api/auth/login", { ...operator, captcha: await solveCaptcha(busyApp) }),
          `198.18.0.${index + 1}`,
        ),
      );
      expect(again.status).toBe(200);
    }
  });
});

describe("ending a panel session ends its access tokens at once", () => {
  test("logout: the access token stops working immediately", async () => {
    const operator = await makeOperator(context, "logout.now", "support");
    const tokens = await tokensFor(app, operator.username, operator.password);
    expect((await panelSearch(tokens.accessToken)).status).toBe(200);
    await api.auth.logout.post({ refreshToken: tokens.refreshToken });
    expect((await panelSearch(tokens.accessToken)).status).toBe(401);
  });

  test("logout with only the bearer token ends that sign-in too", async () => {
    const operator = await makeOperator(context, "logout.bearer", "support");
    const tokens = await tokensFor(app, operator.username, operator.password);
    await api.auth.logout.post({}, staffOf(tokens.accessToken));
    expect((await panelSearch(tokens.accessToken)).status).toBe(401);
    expect((await refresh(tokens.refreshToken)).status).toBe(401);
  });

  test("a reused refresh token revokes the family: the newest access token stops too", async () => {
    const operator = await makeOperator(context, "family.reuse", "support");
    const first = await tokensFor(app, operator.username, operator.password);
    const rotated = await dataOf(refresh(first.refreshToken));
    expect((await panelSearch(rotated.accessToken)).status).toBe(200);
    // Within the replay window the same pair would be answered again; after it, reuse is a leak.
    clock.advance(refreshReplayWindowMs + 1);
    await refresh(first.refreshToken);
    expect((await panelSearch(rotated.accessToken)).status).toBe(401);
    expect((await panelSearch(first.accessToken)).status).toBe(401);
  });

  test("another sign-in of the same operator is not affected by a logout", async () => {
    const operator = await makeOperator(context, "two.sessions", "support");
    const laptop = await tokensFor(app, operator.username, operator.password);
    const phone = await tokensFor(app, operator.username, operator.password);
    await api.auth.logout.post({ refreshToken: laptop.refreshToken });
    expect((await panelSearch(laptop.accessToken)).status).toBe(401);
    expect((await panelSearch(phone.accessToken)).status).toBe(200);
  });
});

describe("the client address behind proxies", () => {
  test("TRUSTED_PROXIES: the right-most untrusted X-Forwarded-For hop is the client", async () => {
    const { app: proxied, context: proxiedContext } = await makeTestApp({ TRUSTED_PROXIES: "10.0.0.0/8" });
    const operator = await makeOperator(proxiedContext, "behind.proxy", "support");
    const viaProxy = async (forwardedFor: string, password: string) =>
      proxied.handle(
        withPeerAddress(
          postJson(
            "/api/auth/login",
            { username: operator.username, password, captcha: await solveCaptcha(proxied) },
            { "x-forwarded-for": forwardedFor },
          ),
          "10.1.2.3",
        ),
      );
    // The client put a fake hop in front; our proxy appended the real address.
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await viaProxy(`1.1.1.${attempt}, 203.0.113.9`, "wrong")).status).toBe(401);
    }
    expect((await viaProxy("9.9.9.9, 203.0.113.9", operator.password)).status).toBe(429);
    expect((await viaProxy("203.0.113.10", operator.password)).status).toBe(200);
    const audit = await proxiedContext.database.get<{ ip_address: string }>(
      "SELECT ip_address FROM audit_log WHERE action = 'operator.login' ORDER BY id DESC LIMIT 1",
    );
    expect(audit?.ip_address).toBe("203.0.113.10");
  });
});
