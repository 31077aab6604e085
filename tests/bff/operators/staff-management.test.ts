import { describe, expect, test } from "vitest";
import { apiOf, dataOf, refusalOf, staffOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { login, makeOperator, tokensFor } from "../../helpers/operators";

/** DESIGN §16: administrators manage staff in the panel; every change is audited. */
const { app, context } = await makeTestApp();
const api = apiOf(app);
const boss = await makeOperator(context, "staff.boss", "admin");
const helper = await makeOperator(context, "staff.helper", "support");
const bossTokens = await tokensFor(app, boss.username, boss.password);
const asBoss = staffOf(bossTokens.accessToken);

const list = async () => (await dataOf(api.panel.operators.get(asBoss))).operators;
const idOf = async (username: string) =>
  (await list()).find((member) => member.username === username)?.id ?? 0;
const staff = api.panel.operators;
/** The newest hundred audit entries (the log pages by 20). */
async function auditActions() {
  const pages = await Promise.all(
    [0, 1, 2, 3, 4].map((page) => dataOf(api.panel.audit.get({ ...asBoss, query: { page } }))),
  );
  return pages.flatMap((answer) => answer.content);
}

describe("staff in the panel", () => {
  test("only administrators may see or change staff", async () => {
    const { accessToken } = await tokensFor(app, helper.username, helper.password);
    expect((await staff.get(staffOf(accessToken))).status).toBe(403);
    expect((await staff.post({ username: "x.y.z", role: "admin" }, staffOf(accessToken))).status).toBe(403);
    expect((await staff.get()).status).toBe(401);
    const listed = await list();
    expect(listed.map((member) => member.username)).toEqual(
      expect.arrayContaining([boss.username, helper.username]),
    );
    expect(JSON.stringify(listed)).not.toContain("argon2");
  });

  test("an operator created without a password gets one made, shown once, that signs in", async () => {
    const created = staff.post({ username: "new.support", role: "support" }, asBoss);
    expect((await created).status).toBe(200);
    const { operator, password } = await dataOf(created);
    expect(operator).toMatchObject({ username: "new.support", role: "support", isDisabled: false });
    expect(password?.length).toBeGreaterThanOrEqual(20);
    expect((await login(app, "new.support", password ?? "")).status).toBe(200);
    // A given password is not echoed back.
    const chosen = await staff.post(
      { username: "chosen.one", role: "admin", password: "a password of our own choosing" },
      asBoss,
    );
    expect(chosen.data?.password).toBeNull();
    expect((await staff.post({ username: "NEW.support", role: "support" }, asBoss)).status).toBe(409);
    expect((await staff.post({ username: "ab", role: "support" }, asBoss)).status).toBe(400);
    expect(
      (await staff.post({ username: "short.pass", role: "support", password: "short" }, asBoss)).status,
    ).toBe(400);
    const unknownRole = { username: "what.role", role: "owner" } as never;
    expect((await staff.post(unknownRole, asBoss)).status).toBe(400);
  });

  test("disabling ends the operator's tokens at once; enabling lets them sign in again", async () => {
    const target = await makeOperator(context, "to.disable", "support");
    const tokens = await tokensFor(app, target.username, target.password);
    const theirs = staffOf(tokens.accessToken);
    expect((await api.panel.audit.get(theirs)).status).toBe(403);
    const id = await idOf(target.username);
    const disabled = await dataOf(staff({ id }).disable.post({}, asBoss));
    expect(disabled.operator.isDisabled).toBe(true);
    expect((await api.panel.users.search.post({}, { ...theirs, query: { emailPart: "a" } })).status).toBe(
      401,
    );
    expect((await api.auth.refreshToken.post({ refreshToken: tokens.refreshToken })).status).toBe(401);
    expect((await login(app, target.username, target.password)).status).toBe(401);
    await staff({ id }).enable.post({}, asBoss);
    expect((await login(app, target.username, target.password)).status).toBe(200);
  });

  test("a new role holds at once, and a reset password is shown once and ends the old sign-ins", async () => {
    const target = await makeOperator(context, "to.promote", "support");
    const old = await tokensFor(app, target.username, target.password);
    const id = await idOf(target.username);
    const promoted = await dataOf(staff({ id }).role.post({ role: "admin" }, asBoss));
    expect(promoted.operator.role).toBe("admin");
    const oldSearch = { ...staffOf(old.accessToken), query: { emailPart: "a" } };
    expect((await api.panel.users.search.post({}, oldSearch)).status).toBe(401);
    const fresh = await tokensFor(app, target.username, target.password);
    expect((await api.panel.audit.get(staffOf(fresh.accessToken))).status).toBe(200);

    const { password } = await dataOf(staff({ id }).resetPassword.post({}, asBoss));
    expect((await api.panel.audit.get(staffOf(fresh.accessToken))).status).toBe(401);
    expect((await login(app, target.username, target.password)).status).toBe(401);
    expect((await login(app, target.username, password)).status).toBe(200);
    expect((await staff({ id }).role.post({ role: "owner" } as never, asBoss)).status).toBe(400);
    expect((await staff({ id: 999999 }).disable.post({}, asBoss)).status).toBe(404);
  });

  test("the panel keeps an administrator: not yourself, and not two disabling each other at once", async () => {
    const self = await idOf(boss.username);
    const ownDisable = await refusalOf(staff({ id: self }).disable.post({}, asBoss));
    expect(ownDisable.status).toBe(409);
    expect(ownDisable.message).toMatch(/your own account/);
    expect((await staff({ id: self }).role.post({ role: "support" }, asBoss)).status).toBe(409);

    // On a database of its own: two administrators, each disabling the other at once.
    const pair = await makeTestApp();
    const first = await makeOperator(pair.context, "pair.first", "admin");
    const second = await makeOperator(pair.context, "pair.second", "admin");
    const [firstTokens, secondTokens] = [
      await tokensFor(pair.app, first.username, first.password),
      await tokensFor(pair.app, second.username, second.password),
    ];
    const pairStaff = apiOf(pair.app).panel.operators;
    const members = await dataOf(pairStaff.get(staffOf(firstTokens.accessToken)));
    const idIn = (username: string) =>
      members.operators.find((member) => member.username === username)?.id ?? 0;
    const answers = await Promise.all([
      pairStaff({ id: idIn(second.username) }).disable.post({}, staffOf(firstTokens.accessToken)),
      pairStaff({ id: idIn(first.username) }).disable.post({}, staffOf(secondTokens.accessToken)),
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
