import { describe, expect, test } from "vitest";
import { loginLimitKeys, loginLimits } from "../../../bff/modules/operators/login-limits";
import { withPeerAddress } from "../../../bff/platform/client-address";
import { makeTestApp, postJson } from "../../helpers/app";
import { login, makeOperator, operatorCommand, solveCaptcha } from "../../helpers/operators";

// DESIGN §12: a lockout cannot be forced on anyone. Filling an account's count of wrong
// passwords (50 from all addresses) does not keep out its operator at an address with no
// recent failures, guessing stays bounded by the per-address counts, and an
// administrator can clear a lock from the CLI.

const { app, context } = await makeTestApp();
const rightPassword = "correct horse battery staple";

/** What was counted on one of the login keys. */
async function failuresOn(key: string): Promise<number> {
  const row = await context.database.get<{ failures: number }>(
    "SELECT failures FROM login_throttle WHERE throttle_key = ?",
    [key],
  );
  return Number(row?.failures ?? 0);
}

const [, accountKeyOf, addressKeyOf] = [0, 1, 2].map(
  (index) => (username: string, address: string) => loginLimitKeys(username, address)[index]?.key ?? "",
) as [unknown, (username: string, address: string) => string, (username: string, address: string) => string];

/** The account's count of wrong passwords from all addresses, full: as 50 guesses from elsewhere leave it. */
async function lockedByOthers(username: string) {
  await context.database.run(
    `INSERT INTO login_throttle (throttle_key, failures, window_started_at, locked_until) VALUES (?, ?, ?, NULL)
     ON CONFLICT (throttle_key) DO UPDATE SET failures = excluded.failures, window_started_at = excluded.window_started_at`,
    [accountKeyOf(username, "any"), loginLimits.account, context.clock.now()],
  );
  // Locked indeed: an address that has failed lately is refused even the right password.
  expect((await login(app, "someone.else", "a wrong password", {}, "192.0.2.250")).status).toBe(401);
  expect((await login(app, username, rightPassword, {}, "192.0.2.250")).status).toBe(429);
}

describe("a full per-account count does not keep out the operator", () => {
  test("the right password from an address with no recent failures signs in", async () => {
    await makeOperator(context, "forced.target", "admin");
    await lockedByOthers("forced.target");
    const response = await login(app, "forced.target", rightPassword, {}, "198.18.0.1");
    expect(response.status).toBe(200);
    // And again: a right password leaves the address clean.
    expect((await login(app, "forced.target", rightPassword, {}, "198.18.0.1")).status).toBe(200);
  });

  test("a wrong password from a clean address reads as the cool-down, and the address is clean no more", async () => {
    await makeOperator(context, "guessed.target", "support");
    await lockedByOthers("guessed.target");
    const wrong = await login(app, "guessed.target", "a wrong guess", {}, "198.18.0.2");
    expect(wrong.status).toBe(429);
    expect(await wrong.text()).toMatch(/Too many failed sign-ins/);
    expect(Number(wrong.headers.get("retry-after"))).toBeGreaterThan(0);
    const right = await login(app, "guessed.target", rightPassword, {}, "198.18.0.2");
    expect(right.status).toBe(429);
  });

  test("parallel guesses from one clean address get one password check at most", async () => {
    await makeOperator(context, "parallel.locked", "support");
    await lockedByOthers("parallel.locked");
    const address = "198.18.1.1";
    const captchas = await Promise.all(Array.from({ length: 20 }, () => solveCaptcha(app)));
    const responses = await Promise.all(
      captchas.map((captcha, index) =>
        app.handle(
          withPeerAddress(
            postJson("/api/auth/login", { username: "parallel.locked", password: `guess ${index}`, captcha }),
            address,
          ),
        ),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(429));
    // Exactly one guess was counted (so checked) for the address; the rest were refused first.
    expect(await failuresOn(addressKeyOf("parallel.locked", address))).toBe(1);
    expect(await failuresOn(accountKeyOf("parallel.locked", address))).toBe(loginLimits.account + 1);
    expect((await login(app, "parallel.locked", rightPassword, {}, address)).status).toBe(429);
  });

  test("the limit of 5 per account and address still holds while the account is not full", async () => {
    await makeOperator(context, "five.target", "support");
    for (let attempt = 0; attempt < loginLimits.accountAndAddress; attempt++)
      expect((await login(app, "five.target", `guess ${attempt}`, {}, "198.18.2.1")).status).toBe(401);
    expect((await login(app, "five.target", rightPassword, {}, "198.18.2.1")).status).toBe(429);
  });
});

describe("npm run operator -- unlock <username>", () => {
  test("clears the account's lock from every address, audited", async () => {
    await makeOperator(context, "unlock.target", "support");
    // Five wrong ones here fill this address's count for the account too.
    for (let attempt = 0; attempt < loginLimits.accountAndAddress; attempt++)
      expect((await login(app, "unlock.target", `guess ${attempt}`, {}, "198.18.3.1")).status).toBe(401);
    await lockedByOthers("unlock.target");
    expect((await login(app, "unlock.target", rightPassword, {}, "198.18.3.1")).status).toBe(429);

    const result = await operatorCommand(context, ["unlock", "UNLOCK.target"]);
    expect(result).toEqual({
      exitCode: 0,
      output: 'Unlocked "UNLOCK.target": its failed sign-ins are forgotten.',
    });
    expect(await failuresOn(accountKeyOf("unlock.target", "198.18.3.1"))).toBe(0);
    expect((await login(app, "unlock.target", rightPassword, {}, "198.18.3.1")).status).toBe(200);
    const audit = await context.database.all<{ action: string; details: string; operator_id: number | null }>(
      "SELECT action, details, operator_id FROM audit_log WHERE action = 'operator.unlock'",
    );
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]?.details ?? "{}")).toEqual({ username: "unlock.target" });
    expect(audit[0]?.operator_id).toBeNull();
  });

  test("an unknown operator is refused, and nothing is audited", async () => {
    expect(await operatorCommand(context, ["unlock", "no.such.one"])).toEqual({
      exitCode: 1,
      output: 'There is no operator "no.such.one".',
    });
    expect(await operatorCommand(context, ["unlock"])).toMatchObject({
      exitCode: 2,
    });
  });
});
