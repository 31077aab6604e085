import { Elysia, t } from "elysia";
import { describe, expect, test } from "vitest";
import { errorHandler } from "../../../bff/platform/error-handler";
import { makeTestApp, postJson } from "../../helpers/app";
import { nodeHeaders } from "../../helpers/nodes";

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

  test("a wrong type names the field, and the whole message is in the caller's language", async () => {
    const refusal = async (body: unknown, language?: string) => {
      const response = await probe.handle(
        postJson("/api/probe", body, language ? { "accept-language": language } : {}),
      );
      expect(response.status).toBe(400);
      return ((await response.json()) as { error: { code: string; message: string } }).error;
    };
    const wrongType = { uid: "u1", period: "five" };
    expect(await refusal(wrongType)).toEqual({
      code: "invalid_input",
      message: 'Field "period": must be a whole number.',
    });
    // The validator's own reasons are English; the catalogue words them in every language.
    expect((await refusal(wrongType, "ru")).message).toBe("Поле «period»: должно быть целым числом.");
    expect((await refusal(wrongType, "zh")).message).toBe("字段“period”：必须是整数。");
    expect((await refusal(wrongType, "kk")).message).toBe("«period» өрісі: бүтін сан болуы керек.");
    expect((await refusal({ period: 3 }, "ru")).message).toBe("Поле «uid»: не указано.");
    expect((await refusal({ uid: 7, period: 3 })).message).toBe('Field "uid": must be text.');
  });

  test("every JSON route of the product answers a broken body with 400", async () => {
    const { app, context } = await makeTestApp();
    // The node API knows its caller before it reads a body (a flood from one key is refused
    // unread): its calls carry a node's key, as an agent's do.
    const node = await nodeHeaders(context, "malformed-json");
    const headersFor = (path: string) => (path.startsWith("/api/nodes/") ? node : {});
    // Routes that read a JSON body (they declare its schema); a body-less call ignores the body.
    const routes = app.routes.filter(
      (route) => ["POST", "PUT", "PATCH"].includes(route.method) && (route.hooks as { body?: unknown }).body,
    );
    expect(routes.map((route) => route.path)).toEqual(
      expect.arrayContaining(["/api/register", "/api/profile"]),
    );
    for (const route of routes) {
      for (const body of badBodies) {
        const sent = postJson(route.path, body, headersFor(route.path));
        // Each route as it is called: a PATCH posted would be a route that does not exist.
        const response = await app.handle(new Request(sent, { method: route.method }));
        expect(response.status, `${route.method} ${route.path} with ${body}`).toBe(400);
        expect(((await response.json()) as { success: boolean }).success).toBe(false);
      }
    }
  });
});
