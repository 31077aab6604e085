import { describe, expect, test } from "vitest";
import {
  disableOperator,
  ensureFirstOperator,
  resetOperatorPassword,
} from "../../../bff/modules/operators/accounts";
import { runOperatorCommand } from "../../../bff/operator-commands";
import { apiOf, dataOf, staffOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { login, makeOperator, tokensFor } from "../../helpers/operators";

describe("operator accounts", () => {
  test("the first operator comes from the environment, or gets a generated password once", async () => {
    const configured = await makeTestApp();
    expect(
      await ensureFirstOperator(configured.context.database, "boss", "a long enough password", 0),
    ).toEqual({ username: "boss" });
    expect((await login(configured.app, "boss", "a long enough password")).status).toBe(200);
    expect(
      await ensureFirstOperator(configured.context.database, "boss", "another password here", 0),
    ).toBeUndefined();

    const generated = await makeTestApp();
    const first = await ensureFirstOperator(generated.context.database, undefined, undefined, 0);
    expect(first).toMatchObject({
      username: "admin",
      generatedPassword: expect.stringMatching(/^[A-Za-z0-9_-]{20}$/),
    });
    expect((await login(generated.app, "admin", first?.generatedPassword ?? "")).status).toBe(200);
  });

  test("passwords are stored as Argon2id hashes and must be long enough", async () => {
    const { context } = await makeTestApp();
    await makeOperator(context, "hashed", "support");
    const row = await context.database.get<{ password_hash: string }>(
      "SELECT password_hash FROM operators WHERE username = 'hashed'",
    );
    expect(row?.password_hash).toMatch(/^\$argon2id\$/);
    await expect(makeOperator(context, "short", "support", "short")).rejects.toThrow(
      /at least 12 characters/,
    );
    await expect(makeOperator(context, "hashed", "admin")).rejects.toThrow(/already exists/);
  });

  test("disabling an operator refuses their login and ends their sessions; every change is audited", async () => {
    const { app, context } = await makeTestApp();
    const admin = await makeOperator(context, "auditor", "admin");
    const leaving = await makeOperator(context, "leaving", "support");
    const tokens = await tokensFor(app, leaving.username, leaving.password);
    await disableOperator(context.database, "leaving", context.clock.now());
    expect((await login(app, leaving.username, leaving.password)).status).toBe(401);
    const api = apiOf(app);
    expect((await api.auth.refreshToken.post({ refreshToken: tokens.refreshToken })).status).toBe(401);
    const search = await api.panel.users.search.post(
      {},
      { ...staffOf(tokens.accessToken), query: { page: 0, size: 10 } },
    );
    expect(search.status).toBe(401);

    await resetOperatorPassword(context.database, "auditor", "a brand new password", context.clock.now());
    expect((await login(app, admin.username, admin.password)).status).toBe(401);
    const adminTokens = await tokensFor(app, "auditor", "a brand new password");
    const audit = await dataOf(
      api.panel.audit.get({ ...staffOf(adminTokens.accessToken), query: { page: 0, size: 20 } }),
    );
    expect(audit.content.map((entry) => entry.action)).toEqual(
      expect.arrayContaining([
        "operator.create",
        "operator.disable",
        "operator.reset-password",
        "operator.login",
      ]),
    );
  });

  test("the CLI's disable keeps the last active administrator, as the panel does", async () => {
    const { app, context } = await makeTestApp();
    const only = await makeOperator(context, "only.admin", "admin");
    await makeOperator(context, "helper", "support");
    const refused = await runOperatorCommand(
      context.database,
      ["disable", "only.admin"],
      context.clock.now(),
    );
    expect(refused).toEqual({
      exitCode: 1,
      output: "only.admin is the last active administrator and cannot be disabled.",
    });
    expect((await login(app, only.username, only.password)).status).toBe(200);
    // Any letter case names the same operator, and is refused the same way.
    expect(
      (await runOperatorCommand(context.database, ["disable", "ONLY.ADMIN"], context.clock.now())).exitCode,
    ).toBe(1);

    // With a second administrator, either may go, but not both.
    await makeOperator(context, "second.admin", "admin");
    expect(
      (await runOperatorCommand(context.database, ["disable", "only.admin"], context.clock.now())).exitCode,
    ).toBe(0);
    expect(
      await runOperatorCommand(context.database, ["disable", "second.admin"], context.clock.now()),
    ).toEqual({
      exitCode: 1,
      output: "second.admin is the last active administrator and cannot be disabled.",
    });
    // Support staff are never the last administrator.
    expect(
      (await runOperatorCommand(context.database, ["disable", "helper"], context.clock.now())).exitCode,
    ).toBe(0);
  });
});
