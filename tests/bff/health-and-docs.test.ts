import { describe, expect, test } from "vitest";
import { makeTestApp, request } from "../helpers/app";

const { app } = await makeTestApp();

describe("health and API documentation", () => {
  test("GET /api/health answers ok with the mode", async () => {
    const response = await app.handle(request("/api/health"));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok", mode: "demo" });
  });

  test("the OpenAPI document is served and lists the routes", async () => {
    const page = await app.handle(request("/api/docs"));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const document = await app.handle(request("/api/docs/json"));
    expect(document.status).toBe(200);
    const spec = (await document.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(["/api/health", "/api/get/docs/oferta_kannt.pdf"]),
    );
  });

  test("an unknown API path is a 404 JSON error, not a page", async () => {
    const response = await app.handle(request("/api/no-such-thing"));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      success: false,
      error: { code: "NOT_FOUND", message: "There is no such API endpoint." },
    });
  });
});
