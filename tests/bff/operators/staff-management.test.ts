import { describe, expect, test } from "vitest";
import { makeTestApp, postJson, request } from "../../helpers/app";
import { bearer, login, makeOperator, tokensFor } from "../../helpers/operators";

/** DESIGN §16: administrators manage staff in the panel; every change is audited. */
const { app, context } = await makeTestApp();
const boss = await makeOperator(context, "staff.boss", "admin");
const helper = await makeOperator(context, "staff.helper", "support");
const bossTokens = await tokensFor(app, boss.username, boss.password);
const asBoss = bearer(bossTokens.accessToken);

type Member = { id: number; username: string; role: string; isDisabled: boolean };
const list = async () =>
  (
    (await (await app.handle(request("/api/panel/operators", { headers: asBoss }))).json()) as {
      operators: Member[];
    }
  ).operators;
const idOf = async (username: string) =>
  (await list()).find((member) => member.username === username)?.id ?? 0;
const post = (path: string, body: unknown = {}, headers = asBoss) =>
  app.handle(postJson(path, body, headers));
type AuditEntry = { action: string; operator: string; details: { username?: string } };
/** The newest hundred audit entries (the log pages by 20). */
async function auditActions(): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  for (let page = 0; page < 5; page++) {
    const response = await app.handle(request(`/api/panel/audit?page=${page}`, { headers: asBoss }));
    entries.push(...((await response.json()) as { content: AuditEntry[] }).content);
  }
  return entries;
}

describe("staff in the panel", () => {
  test("only administrators may see or change staff", async () => {
    const { accessToken } = await tokensFor(app, helper.username, helper.password);
    expect((await app.handle(request("/api/panel/operators", { headers: bearer(accessToken) }))).status).toBe(
      403,
    );
    expect(
      (await post("/api/panel/operators", { username: "x.y.z", role: "admin" }, bearer(accessToken))).status,
    ).toBe(403);
    expect((await app.handle(request("/api/panel/operators"))).status).toBe(401);
    const listed = await list();
    expect(listed.map((member) => member.username)).toEqual(
      expect.arrayContaining([boss.username, helper.username]),
    );
    expect(JSON.stringify(listed)).not.toContain("argon2");
  });

  test("an operator created without a password gets one made, shown once, that signs in", async () => {
    const created = await post("/api/panel/operators", { username: "new.support", role: "support" });
    expect(created.status).toBe(200);
    const { operator, password } = (await created.json()) as { operator: Member; password: string };
    expect(operator).toMatchObject({ username: "new.support", role: "support", isDisabled: false });
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect((await login(app, "new.support", password)).status).toBe(200);
    // A given password is not echoed back.
    const chosen = await post("/api/panel/operators", {
      username: "chosen.one",
      role: "admin",
      password: "a password of our own choosing",
    });
    expect(((await chosen.json()) as { password: string | null }).password).toBeNull();
    expect((await post("/api/panel/operators", { username: "NEW.support", role: "support" })).status).toBe(
      409,
    );
    expect((await post("/api/panel/operators", { username: "ab", role: "support" })).status).toBe(400);
    expect(
      (await post("/api/panel/operators", { username: "short.pass", role: "support", password: "short" }))
        .status,
    ).toBe(400);
    expect((await post("/api/panel/operators", { username: "what.role", role: "owner" })).status).toBe(400);
  });

  test("disabling ends the operator's tokens at once; enabling lets them sign in again", async () => {
    const target = await makeOperator(context, "to.disable", "support");
    const tokens = await tokensFor(app, target.username, target.password);
    const theirs = bearer(tokens.accessToken);
    expect((await app.handle(request("/api/panel/audit", { headers: theirs }))).status).toBe(403);
    const id = await idOf(target.username);
    const disabled = await post(`/api/panel/operators/${id}/disable`);
    expect(((await disabled.json()) as { operator: Member }).operator.isDisabled).toBe(true);
    expect((await app.handle(postJson("/api/panel/users/search?emailPart=a", {}, theirs))).status).toBe(401);
    expect(
      (await app.handle(postJson("/api/auth/refreshToken", { refreshToken: tokens.refreshToken }))).status,
    ).toBe(401);
    expect((await login(app, target.username, target.password)).status).toBe(401);
    await post(`/api/panel/operators/${id}/enable`);
    expect((await login(app, target.username, target.password)).status).toBe(200);
  });

  test("a new role holds at once, and a reset password is shown once and ends the old sign-ins", async () => {
    const target = await makeOperator(context, "to.promote", "support");
    const old = await tokensFor(app, target.username, target.password);
    const id = await idOf(target.username);
    const promoted = await post(`/api/panel/operators/${id}/role`, { role: "admin" });
    expect(((await promoted.json()) as { operator: Member }).operator.role).toBe("admin");
    expect(
      (await app.handle(postJson("/api/panel/users/search?emailPart=a", {}, bearer(old.accessToken)))).status,
    ).toBe(401);
    const fresh = await tokensFor(app, target.username, target.password);
    expect(
      (await app.handle(request("/api/panel/audit", { headers: bearer(fresh.accessToken) }))).status,
    ).toBe(200);

    const reset = await post(`/api/panel/operators/${id}/resetPassword`);
    const { password } = (await reset.json()) as { password: string };
    expect(
      (await app.handle(request("/api/panel/audit", { headers: bearer(fresh.accessToken) }))).status,
    ).toBe(401);
    expect((await login(app, target.username, target.password)).status).toBe(401);
    expect((await login(app, target.username, password)).status).toBe(200);
    expect((await post(`/api/panel/operators/${id}/role`, { role: "owner" })).status).toBe(400);
    expect((await post("/api/panel/operators/999999/disable")).status).toBe(404);
  });

  test("the panel keeps an administrator: not yourself, and not two disabling each other at once", async () => {
    const self = await idOf(boss.username);
    const ownDisable = await post(`/api/panel/operators/${self}/disable`);
    expect(ownDisable.status).toBe(409);
    expect(await ownDisable.text()).toMatch(/your own account/);
    expect((await post(`/api/panel/operators/${self}/role`, { role: "support" })).status).toBe(409);

    // On a database of its own: two administrators, each disabling the other at once.
    const pair = await makeTestApp();
    const first = await makeOperator(pair.context, "pair.first", "admin");
    const second = await makeOperator(pair.context, "pair.second", "admin");
    const [firstTokens, secondTokens] = [
      await tokensFor(pair.app, first.username, first.password),
      await tokensFor(pair.app, second.username, second.password),
    ];
    const members = (await (
      await pair.app.handle(request("/api/panel/operators", { headers: bearer(firstTokens.accessToken) }))
    ).json()) as { operators: Member[] };
    const idIn = (username: string) => members.operators.find((member) => member.username === username)?.id;
    const answers = await Promise.all([
      pair.app.handle(
        postJson(
          `/api/panel/operators/${idIn(second.username)}/disable`,
          {},
          bearer(firstTokens.accessToken),
        ),
      ),
      pair.app.handle(
        postJson(
          `/api/panel/operators/${idIn(first.username)}/disable`,
          {},
          bearer(secondTokens.accessToken),
        ),
      ),
    ]);
    // One wins; the other is refused, as the last administrator's or as already signed out.
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    const active = await pair.context.database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM operators WHERE role = 'admin' AND is_disabled = 0",
    );
    expect(active?.count).toBe(1);
  });

  test("every change is in the audit log with who made it", async () => {
    const actions = await auditActions();
    for (const action of [
      "operator.create",
      "operator.disable",
      "operator.enable",
      "operator.role",
      "operator.reset-password",
    ])
      expect(actions.map((entry) => entry.action)).toContain(action);
    expect(actions.find((entry) => entry.action === "operator.enable")).toMatchObject({
      operator: boss.username,
      details: { username: "to.disable" },
    });
  });
});
