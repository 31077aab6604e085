import { Secret, TOTP } from "otpauth";
import { describe, expect, test } from "vitest";
import { challengeLifetimeMs, freshCheckMs } from "../../../bff/modules/operators/second-factor/factor-rules";
import { apiOf, dataOf, refusalOf, staffOf } from "../../helpers/api";
import { makeTestApp, publicUrlOf } from "../../helpers/app";
import {
  enrolPasskey,
  type LoginAnswer,
  login,
  makeOperator,
  operatorCommand,
  passkeySignIn,
  type TokenPair,
} from "../../helpers/operators";
import { SoftwarePasskey } from "../../helpers/software-passkey";

// DESIGN §12 "Staff second factor", on both engines: enrolment, the password step's ticket,
// passkeys (user verification, single-use 60 s challenges, counters, RP ID and origin), TOTP
// (once, ±1 step), recovery codes (once), the login limits, fresh checks, the CLI's reset
// and the audit log, which never holds a secret.

const { app, context, clock } = await makeTestApp();
const api = apiOf(app);
const origin = publicUrlOf(app);
const password = "correct horse battery staple";
let serial = 0;
const uniqueName = (role: string) => `${role}.${Date.now().toString(36)}.${serial++}`;

async function passwordStep(username: string, address = "127.0.0.1"): Promise<LoginAnswer> {
  const response = await login(app, username, password, {}, address);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as LoginAnswer;
}

const ticketOf = (answer: LoginAnswer) => {
  if (!("secondFactor" in answer)) throw new Error("expected the second step, got tokens");
  return answer.secondFactor.ticket;
};
const pairOf = (answer: LoginAnswer): TokenPair => {
  if ("secondFactor" in answer) throw new Error("expected tokens, got the second step");
  return answer;
};

/** An administrator who signed in with the password and enrolled a passkey with that sign-in. */
async function adminWithPasskey(options: Partial<ConstructorParameters<typeof SoftwarePasskey>[0]> = {}) {
  const username = uniqueName("admin");
  await makeOperator(context, username, "admin");
  const first = pairOf(await passwordStep(username));
  const passkey = new SoftwarePasskey({ origin, ...options });
  const registration = await dataOf(api.panel.security.passkeys.options.post({}, staffOf(first.accessToken)));
  const added = await dataOf(
    api.panel.security.passkeys.post(
      {
        challengeId: registration.challengeId,
        name: "Laptop",
        credential: passkey.register(registration.options),
      },
      staffOf(first.accessToken),
    ),
  );
  return { username, passkey, first, added };
}

/** A support operator (who need not have a factor) with TOTP set up; the secret as the app keeps it. */
async function operatorWithTotp(role: "admin" | "support" = "support") {
  const username = uniqueName(role);
  await makeOperator(context, username, role);
  const first = pairOf(await passwordStep(username));
  const started = await dataOf(api.panel.security.totp.start.post({}, staffOf(first.accessToken)));
  const app = new TOTP({
    secret: Secret.fromBase32(started.secret),
    digits: 6,
    period: 30,
    algorithm: "SHA1",
  });
  // The code of the step before: the next sign-in's code (this step's) is then still new.
  const codes = await dataOf(
    api.panel.security.totp.post(
      { code: app.generate({ timestamp: Date.now() - 30_000 }) },
      staffOf(first.accessToken),
    ),
  );
  return { username, app, started, first, recoveryCodes: codes.recoveryCodes };
}

const auditOf = (action: string) =>
  context.database.all<{ operator_id: number | null; details: string; ip_address: string | null }>(
    "SELECT operator_id, details, ip_address FROM audit_log WHERE action = ? ORDER BY id",
    [action],
  );

describe("an administrator without a second factor", () => {
  test("gets a pair that can only enrol one: every other panel call is 403", async () => {
    const username = uniqueName("admin");
    await makeOperator(context, username, "admin");
    const answer = await passwordStep(username);
    expect(answer).toMatchObject({ enrolmentRequired: true });
    const headers = staffOf(pairOf(answer).accessToken);
    for (const call of [
      api.panel.users.search.post({}, { query: { emailPart: "x" }, ...headers }),
      api.panel.audit.get({ query: {}, ...headers }),
      api.panel.refund.post({ email: "a@example.com", uid: "u" }, headers),
    ]) {
      const refusal = await refusalOf(call);
      expect(refusal).toMatchObject({ status: 403, code: "second_factor_enrolment_required" });
      expect(refusal.message).toMatch(/second factor/);
    }
    const factors = await dataOf(api.panel.security.get(headers));
    expect(factors).toMatchObject({ passkeys: [], totp: null, recoveryCodesLeft: 0, isRequired: true });
  });

  test("enrols a passkey with that sign-in, gets 10 recovery codes once, and the panel opens", async () => {
    const { first, added } = await adminWithPasskey();
    expect(added.recoveryCodes).toHaveLength(10);
    expect(new Set(added.recoveryCodes).size).toBe(10);
    expect(added.passkey).toMatchObject({ name: "Laptop", lastUsedAt: null });
    const page = await dataOf(api.panel.audit.get({ query: {}, ...staffOf(first.accessToken) }));
    expect(page.content.length).toBeGreaterThan(0);
    const factors = await dataOf(api.panel.security.get(staffOf(first.accessToken)));
    expect(factors).toMatchObject({ recoveryCodesLeft: 10, isRequired: true });
    expect(JSON.stringify(factors)).not.toContain(added.recoveryCodes?.[0]);
  });

  test("support staff need none unless SUPPORT_SECOND_FACTOR=required", async () => {
    const username = uniqueName("support");
    await makeOperator(context, username, "support");
    const answer = await passwordStep(username);
    expect(answer).not.toHaveProperty("enrolmentRequired");
    await dataOf(
      api.panel.users.search.post({}, { query: { emailPart: "x" }, ...staffOf(pairOf(answer).accessToken) }),
    );

    const strict = await makeTestApp({ SUPPORT_SECOND_FACTOR: "required" });
    await makeOperator(strict.context, "strict.support", "support");
    const response = await login(strict.app, "strict.support", password);
    const pair = (await response.json()) as TokenPair & { enrolmentRequired?: true };
    expect(pair.enrolmentRequired).toBe(true);
    const refusal = await refusalOf(
      apiOf(strict.app).panel.users.search.post(
        {},
        { query: { emailPart: "x" }, ...staffOf(pair.accessToken) },
      ),
    );
    expect(refusal.code).toBe("second_factor_enrolment_required");
  });
});

describe("signing in with a passkey", () => {
  test("the password alone answers a ticket, no tokens; the passkey finishes it, or signs in alone", async () => {
    const { username, passkey } = await adminWithPasskey();
    const answer = await passwordStep(username);
    expect(answer).not.toHaveProperty("accessToken");
    expect(answer).toMatchObject({ secondFactor: { methods: ["passkey", "recovery"] } });
    const pair = await passkeySignIn(api, passkey, ticketOf(answer));
    await dataOf(api.panel.audit.get({ query: {}, ...staffOf(pair.accessToken) }));
    const alone = await passkeySignIn(api, passkey);
    await dataOf(api.panel.audit.get({ query: {}, ...staffOf(alone.accessToken) }));
    const listed = await dataOf(api.panel.security.get(staffOf(alone.accessToken)));
    expect(listed.passkeys[0]?.lastUsedAt).toEqual(expect.any(Number));
    const logins = (await auditOf("operator.login")).map(
      (row) => JSON.parse(row.details) as { method: string },
    );
    expect(logins.map((entry) => entry.method)).toEqual(expect.arrayContaining(["password", "passkey"]));
  });

  test("a challenge serves once: the same assertion again is refused", async () => {
    const { passkey } = await adminWithPasskey();
    const options = await dataOf(api.auth.passkey.options.post({}));
    const credential = passkey.assert(options.options);
    await dataOf(api.auth.passkey.post({ challengeId: options.challengeId, credential }));
    const replay = await refusalOf(api.auth.passkey.post({ challengeId: options.challengeId, credential }));
    expect(replay).toMatchObject({ status: 401, code: "passkey_challenge_invalid" });
  });

  test("a challenge expires after 60 s", async () => {
    const { passkey } = await adminWithPasskey();
    const options = await dataOf(api.auth.passkey.options.post({}));
    clock.advance(challengeLifetimeMs + 1);
    const late = await refusalOf(
      api.auth.passkey.post({
        challengeId: options.challengeId,
        credential: passkey.assert(options.options),
      }),
    );
    expect(late).toMatchObject({ status: 401, code: "passkey_challenge_invalid" });
  });

  test("user verification is required, at registration and at sign-in", async () => {
    const username = uniqueName("admin");
    await makeOperator(context, username, "admin");
    const first = pairOf(await passwordStep(username));
    const unverified = new SoftwarePasskey({ origin, isUserVerified: false });
    const registration = await dataOf(
      api.panel.security.passkeys.options.post({}, staffOf(first.accessToken)),
    );
    expect(registration.options.authenticatorSelection).toMatchObject({
      userVerification: "required",
      residentKey: "required",
    });
    const refused = await refusalOf(
      api.panel.security.passkeys.post(
        {
          challengeId: registration.challengeId,
          name: "No PIN",
          credential: unverified.register(registration.options),
        },
        staffOf(first.accessToken),
      ),
    );
    expect(refused).toMatchObject({ status: 401, code: "passkey_not_accepted" });

    const { passkey } = await adminWithPasskey();
    passkey.isUserVerified = false;
    const options = await dataOf(api.auth.passkey.options.post({}));
    expect(options.options.userVerification).toBe("required");
    const signIn = await refusalOf(
      api.auth.passkey.post({
        challengeId: options.challengeId,
        credential: passkey.assert(options.options),
      }),
    );
    expect(signIn).toMatchObject({ status: 401, code: "passkey_not_accepted" });
  });

  test("a counter that goes back fails; a synced passkey reporting 0 signs in every time", async () => {
    const counting = await adminWithPasskey({ keepsCounter: true, counter: 1 });
    await passkeySignIn(api, counting.passkey);
    await passkeySignIn(api, counting.passkey);
    counting.passkey.counter = 1; // a clone of it, from before those two uses
    const options = await dataOf(api.auth.passkey.options.post({}));
    const cloned = await refusalOf(
      api.auth.passkey.post({
        challengeId: options.challengeId,
        credential: counting.passkey.assert(options.options),
      }),
    );
    expect(cloned).toMatchObject({ status: 401, code: "passkey_not_accepted" });

    const synced = await adminWithPasskey();
    for (let attempt = 0; attempt < 3; attempt++) await passkeySignIn(api, synced.passkey);
  });

  test("an assertion made for another origin or RP ID fails", async () => {
    const { passkey } = await adminWithPasskey();
    passkey.origin = "https://kannt-login.example";
    const phished = await dataOf(api.auth.passkey.options.post({}));
    expect(
      await refusalOf(
        api.auth.passkey.post({
          challengeId: phished.challengeId,
          credential: passkey.assert(phished.options),
        }),
      ),
    ).toMatchObject({ code: "passkey_not_accepted" });
    passkey.origin = origin;
    const otherParty = await dataOf(api.auth.passkey.options.post({}));
    expect(
      await refusalOf(
        api.auth.passkey.post({
          challengeId: otherParty.challengeId,
          credential: passkey.assert(otherParty.options, "evil.example"),
        }),
      ),
    ).toMatchObject({ code: "passkey_not_accepted" });
    expect(new URL(origin).hostname).toBe(phished.options.rpId);
  });

  test("a ticket's challenge takes only its operator's passkey; an unknown passkey is refused", async () => {
    const one = await adminWithPasskey();
    const other = await adminWithPasskey();
    const options = await dataOf(
      api.auth.passkey.options.post({ ticket: ticketOf(await passwordStep(one.username)) }),
    );
    expect(options.options.allowCredentials?.map((credential) => credential.id)).toEqual([one.passkey.id]);
    expect(
      await refusalOf(
        api.auth.passkey.post({
          challengeId: options.challengeId,
          credential: other.passkey.assert(options.options),
        }),
      ),
    ).toMatchObject({ code: "passkey_not_accepted" });
    const stranger = new SoftwarePasskey({ origin });
    const open = await dataOf(api.auth.passkey.options.post({}));
    expect(
      await refusalOf(
        api.auth.passkey.post({ challengeId: open.challengeId, credential: stranger.assert(open.options) }),
      ),
    ).toMatchObject({ code: "passkey_unknown" });
    const failures = await auditOf("operator.login-failed");
    expect(failures.some((row) => JSON.parse(row.details).reason === "passkey")).toBe(true);
  });
});

describe("the authenticator app and recovery codes", () => {
  test("a TOTP code signs in once; the same code again, or an older one, is refused", async () => {
    const operator = await operatorWithTotp();
    expect(operator.started.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(operator.started.qrSvg).toContain("<svg");
    expect(operator.recoveryCodes).toHaveLength(10);
    const code = operator.app.generate({ timestamp: Date.now() });
    const answer = await passwordStep(operator.username);
    expect(answer).toMatchObject({ secondFactor: { methods: ["totp", "recovery"] } });
    const ticket = ticketOf(answer);
    await dataOf(api.auth["second-factor"].post({ ticket, kind: "totp", code }));
    expect(await refusalOf(api.auth["second-factor"].post({ ticket, kind: "totp", code }))).toMatchObject({
      status: 401,
      code: "wrong_second_factor_code",
    });
    const older = operator.app.generate({ timestamp: Date.now() - 30_000 });
    expect(
      (await refusalOf(api.auth["second-factor"].post({ ticket, kind: "totp", code: older }))).code,
    ).toBe("wrong_second_factor_code");
    const farAhead = operator.app.generate({ timestamp: Date.now() + 120_000 });
    expect(
      (await refusalOf(api.auth["second-factor"].post({ ticket, kind: "totp", code: farAhead }))).code,
    ).toBe("wrong_second_factor_code");
  });

  test("the secret is kept sealed, and a set-up is confirmed only by a right code", async () => {
    const username = uniqueName("support");
    await makeOperator(context, username, "support");
    const first = pairOf(await passwordStep(username));
    const started = await dataOf(api.panel.security.totp.start.post({}, staffOf(first.accessToken)));
    const stored = await context.database.get<{ secret_sealed: string }>(
      "SELECT secret_sealed FROM operator_totp WHERE secret_sealed IS NOT NULL ORDER BY created_at DESC LIMIT 1",
    );
    expect(stored?.secret_sealed).not.toContain(started.secret);
    expect(
      await refusalOf(api.panel.security.totp.post({ code: "000000" }, staffOf(first.accessToken))),
    ).toMatchObject({ code: "wrong_second_factor_code" });
    expect(await passwordStep(username)).not.toHaveProperty("secondFactor");
  });

  test("a recovery code signs in once, in any letter case", async () => {
    const operator = await operatorWithTotp();
    const code = operator.recoveryCodes[0] ?? "";
    const ticket = ticketOf(await passwordStep(operator.username));
    await dataOf(api.auth["second-factor"].post({ ticket, kind: "recovery", code: code.toUpperCase() }));
    expect(await refusalOf(api.auth["second-factor"].post({ ticket, kind: "recovery", code }))).toMatchObject(
      {
        code: "wrong_second_factor_code",
      },
    );
    const signedIn = await passkeyFreeSignIn(operator.username, operator.recoveryCodes[1] ?? "");
    expect((await dataOf(api.panel.security.get(staffOf(signedIn.accessToken)))).recoveryCodesLeft).toBe(8);
  });

  test("a ticket lasts five minutes, and only a right password earns one", async () => {
    const operator = await operatorWithTotp();
    const ticket = ticketOf(await passwordStep(operator.username));
    clock.advance(5 * 60_000 + 1);
    expect(
      await refusalOf(
        api.auth["second-factor"].post({ ticket, kind: "recovery", code: operator.recoveryCodes[0] ?? "" }),
      ),
    ).toMatchObject({ status: 401, code: "second_factor_ticket_invalid" });
    expect(
      await refusalOf(
        api.auth["second-factor"].post({ ticket: "not.a.ticket", kind: "totp", code: "123456" }),
      ),
    ).toMatchObject({ code: "second_factor_ticket_invalid" });
    expect((await login(app, operator.username, "a wrong password")).status).toBe(401);
  });
});

async function passkeyFreeSignIn(username: string, recoveryCode: string, address = "127.0.0.1") {
  const ticket = ticketOf(await passwordStep(username, address));
  return dataOf(
    apiOf(app, address).auth["second-factor"].post({ ticket, kind: "recovery", code: recoveryCode }),
  );
}

describe("the login limits", () => {
  test("wrong codes count like wrong passwords: the sixth from one address is 429", async () => {
    const operator = await operatorWithTotp();
    const address = "198.51.100.21";
    const ticket = ticketOf(await passwordStep(operator.username, address));
    const from = apiOf(app, address);
    for (let attempt = 0; attempt < 5; attempt++)
      expect(
        (
          await refusalOf(
            from.auth["second-factor"].post({ ticket, kind: "recovery", code: `wrong-${attempt}0000` }),
          )
        ).code,
      ).toBe("wrong_second_factor_code");
    const locked = await refusalOf(
      from.auth["second-factor"].post({ ticket, kind: "recovery", code: operator.recoveryCodes[0] ?? "" }),
    );
    expect(locked).toMatchObject({ status: 429, code: "too_many_sign_ins" });
    // The right code was never looked at: it still works from another address.
    await passkeyFreeSignIn(operator.username, operator.recoveryCodes[0] ?? "", "198.51.100.22");
  });

  test("with a factor, a full per-account count stops the right password from a clean address too", async () => {
    const operator = await operatorWithTotp();
    const key = `login:account:${operator.username.toLowerCase()}`;
    await context.database.run(
      `INSERT INTO login_throttle (throttle_key, failures, window_started_at, locked_until) VALUES (?, 50, ?, NULL)
       ON CONFLICT (throttle_key) DO UPDATE SET failures = 50, window_started_at = excluded.window_started_at`,
      [key, clock.now()],
    );
    expect((await login(app, operator.username, password, {}, "198.18.7.1")).status).toBe(429);
    // Without a factor the waiver stands (DESIGN §12): the clean address gets its attempt.
    const bare = uniqueName("support");
    await makeOperator(context, bare, "support");
    await context.database.run(
      "INSERT INTO login_throttle (throttle_key, failures, window_started_at, locked_until) VALUES (?, 50, ?, NULL)",
      [`login:account:${bare.toLowerCase()}`, clock.now()],
    );
    expect((await login(app, bare, password, {}, "198.18.7.2")).status).toBe(200);
  });
});

describe("adding or removing a factor", () => {
  test("needs a check from the last five minutes: the sign-in, then the password again", async () => {
    const { username, passkey } = await adminWithPasskey();
    const pair = await passkeySignIn(api, passkey, ticketOf(await passwordStep(username)));
    const headers = staffOf(pair.accessToken);
    clock.advance(freshCheckMs + 1);
    expect(await refusalOf(api.panel.security.totp.start.post({}, headers))).toMatchObject({
      status: 403,
      code: "fresh_check_required",
    });
    expect(await refusalOf(api.panel.security.confirm.post({ password: "not it" }, headers))).toMatchObject({
      status: 401,
      code: "wrong_password",
    });
    const confirmed = await dataOf(api.panel.security.confirm.post({ password }, headers));
    expect(confirmed.freshUntil).toBeGreaterThan(clock.now() + freshCheckMs - 60_000);
    await dataOf(api.panel.security.totp.start.post({}, headers));
    clock.advance(freshCheckMs + 1);
    const check = await dataOf(api.panel.security.confirm.options.post({}, headers));
    await dataOf(
      api.panel.security.confirm.post(
        { challengeId: check.challengeId, credential: passkey.assert(check.options) },
        headers,
      ),
    );
    await dataOf(api.panel.security.totp.start.post({}, headers));
    expect((await auditOf("operator.fresh-check-failed")).length).toBeGreaterThan(0);
  });

  test("an administrator keeps a last factor; support may remove theirs, recovery codes with it", async () => {
    const admin = await adminWithPasskey();
    const headers = staffOf(admin.first.accessToken);
    expect(
      await refusalOf(api.panel.security.passkeys({ id: admin.added.passkey.id }).delete({}, headers)),
    ).toMatchObject({
      status: 409,
      code: "last_second_factor",
    });
    const second = await enrolPasskey(api, origin, admin.first.accessToken, "Phone");
    expect(second.added.recoveryCodes).toBeUndefined();
    await dataOf(api.panel.security.passkeys({ id: admin.added.passkey.id }).delete({}, headers));
    expect((await dataOf(api.panel.security.get(headers))).passkeys.map((key) => key.name)).toEqual([
      "Phone",
    ]);

    const support = await operatorWithTotp();
    const supportHeaders = staffOf(support.first.accessToken);
    await dataOf(api.panel.security.totp.delete({}, supportHeaders));
    expect(await dataOf(api.panel.security.get(supportHeaders))).toMatchObject({
      totp: null,
      recoveryCodesLeft: 0,
    });
    expect(await passwordStep(support.username)).not.toHaveProperty("secondFactor");
  });

  test("the first factor ends the operator's other sign-ins, made with the password alone", async () => {
    const username = uniqueName("support");
    await makeOperator(context, username, "support");
    const elsewhere = pairOf(await passwordStep(username, "203.0.113.9"));
    const here = pairOf(await passwordStep(username));
    await enrolPasskey(api, origin, here.accessToken);
    expect((await refusalOf(api.panel.security.get(staffOf(elsewhere.accessToken)))).code).toBe(
      "panel_session_closed",
    );
    await dataOf(api.panel.security.get(staffOf(here.accessToken)));
  });
});

describe("the CLI's reset-factors and the audit log", () => {
  test("clears every factor, ends the sign-ins, and the administrator must enrol again", async () => {
    const admin = await adminWithPasskey();
    const result = await operatorCommand(context, ["reset-factors", admin.username]);
    expect(result).toMatchObject({ exitCode: 0 });
    expect((await refusalOf(api.panel.security.get(staffOf(admin.first.accessToken)))).code).toBe(
      "panel_session_closed",
    );
    expect(await passwordStep(admin.username)).toMatchObject({ enrolmentRequired: true });
    const entries = await auditOf("operator.reset-factors");
    expect(entries.some((row) => JSON.parse(row.details).username === admin.username)).toBe(true);
    expect((await operatorCommand(context, ["reset-factors", "nobody.here"])).exitCode).toBe(1);
  });

  test("names every sign-in, enrolment, removal and failure, and holds no secret", async () => {
    const operator = await operatorWithTotp();
    const wrong = await login(app, operator.username, "typed-secret-password");
    expect(wrong.status).toBe(401);
    const rows = await context.database.all<{ action: string; details: string }>(
      "SELECT action, details FROM audit_log",
    );
    const actions = new Set(rows.map((row) => row.action));
    for (const action of [
      "operator.login",
      "operator.login-failed",
      "operator.passkey-add",
      "operator.passkey-remove",
      "operator.totp-add",
      "operator.totp-remove",
      "operator.fresh-check",
      "operator.fresh-check-failed",
      "operator.reset-factors",
    ])
      expect(actions, action).toContain(action);
    const everything = JSON.stringify(rows);
    for (const secret of [
      operator.started.secret,
      ...operator.recoveryCodes,
      password,
      "typed-secret-password",
    ])
      expect(everything).not.toContain(secret);
  });
});
