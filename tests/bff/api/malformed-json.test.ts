import { Elysia, t } from "elysia";
import { describe, expect, test } from "vitest";
import { errorHandler } from "../../../bff/platform/error-handler";
import { makeTestApp, postJson } from "../../helpers/app";

const badBodies = ["{", '{"uid": }', "not json at all", '{"a":1}}'];

describe("malformed or invalid JSON is a 400 JSON error, never a 500", () => {
  // A route shaped like the product's JSON calls, behind the app's own error handler.
  const probe = new Elysia({ prefix: "/api" })
    .use(errorHandler)
    .post("/probe", ({ body }) => body, { body: t.Object({ uid: t.String(), period: t.Integer() }) });

  test.each(badBodies)("body %j", async (body) => {
    const response = await probe.handle(postJson("/api/probe", body));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      success: false,
      error: { code: "unreadable_body", message: "The request body could not be read: send valid JSON." },
    });
  });

  test("a wrong type names the field", async () => {
    const response = await probe.handle(postJson("/api/probe", { uid: "u1", period: "five" }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string } };
    const reason = "Property 'period' should be one of: 'integer', 'integer'";
    expect(body.error).toEqual({ code: "invalid_input", message: `Field "period": ${reason}.` });
    // The words around the validator's reason are in the caller's language.
    const russian = await probe.handle(
      postJson("/api/probe", { uid: "u1", period: "five" }, { "accept-language": "ru" }),
    );
    expect(((await russian.json()) as typeof body).error).toEqual({
      code: "invalid_input",
      message: `Поле «period»: ${reason}.`,
    });
  });

  test("every JSON route of the product answers a broken body with 400", async () => {
    const { app } = await makeTestApp();
    // Routes that read a JSON body (they declare its schema); a body-less call ignores the body.
    const routes = app.routes.filter(
      (route) => ["POST", "PUT", "PATCH"].includes(route.method) && (route.hooks as { body?: unknown }).body,
    );
    expect(routes.map((route) => route.path)).toEqual(
      expect.arrayContaining(["/api/register", "/api/profile"]),
    );
    for (const route of routes) {
      for (const body of badBodies) {
        const response = await app.handle(postJson(route.path, body));
        expect(response.status, `${route.method} ${route.path} with ${body}`).toBe(400);
        expect(((await response.json()) as { success: boolean }).success).toBe(false);
      }
    }
  });
});
