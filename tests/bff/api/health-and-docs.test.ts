import { createHash } from "node:crypto";
import { describe, expect, onTestFinished, test } from "vitest";
import { apiOf } from "../../helpers/api";
import { makeTestApp, request } from "../../helpers/app";

const { app } = await makeTestApp();

describe("health and API documentation", () => {
  test("GET /api/health answers ok with the mode", async () => {
    const health = await apiOf(app).health.get();
    expect(health.status).toBe(200);
    expect(health.data).toMatchObject({ status: "ok", mode: "demo" });
  });

  test("the OpenAPI document is served and lists the routes", async () => {
    const page = await app.handle(request("/api/docs"));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const document = await app.handle(request("/api/docs/json"));
    expect(document.status).toBe(200);
    // The document is the OpenAPI plugin's own route, which the app's type does not list.
    const spec = (await document.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(spec.openapi).toMatch(/^3\./);
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(["/api/health", "/api/get/docs/oferta_kannt.pdf"]),
    );
  });

  // DESIGN §12: no third-party script runs on the product's origin, the docs page included.
  test("the docs page loads only pinned files of this origin, under a policy that admits nothing else", async () => {
    const page = await app.handle(request("/api/docs"));
    expect(page.status).toBe(200);
    const html = await page.text();
    // No address of another host anywhere: not a script, a stylesheet, a font or a link.
    expect(html.match(/(https?:)?\/\/[^\s"'<>]+/gi) ?? []).toEqual([]);
    const policy = page.headers.get("content-security-policy") ?? "";
    const directive = (name: string) => policy.split(/;\s*/).find((part) => part.startsWith(`${name} `));
    expect(directive("script-src")).toBe("script-src 'self'");
    expect(directive("default-src")).toBe("default-src 'none'");
    expect(directive("connect-src")).toBe("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain("unsafe");

    const references = [...html.matchAll(/<(script|link)\b[^>]*>/g)].map(([tag]) => ({
      url: tag.match(/(?:src|href)="([^"]+)"/)?.[1] ?? "",
      integrity: tag.match(/integrity="([^"]+)"/)?.[1] ?? "",
    }));
    expect(references.map((reference) => reference.url)).toEqual([
      "/api/docs/assets/swagger-ui.css",
      "/api/docs/assets/swagger-ui-bundle.js",
      "/api/docs/assets/start.js",
    ]);
    for (const { url, integrity } of references) {
      const file = await app.handle(request(url));
      expect(file.status, url).toBe(200);
      const digest = createHash("sha384")
        .update(Buffer.from(await file.arrayBuffer()))
        .digest("base64");
      expect(integrity, url).toBe(`sha384-${digest}`);
    }
    const start = await (await app.handle(request("/api/docs/assets/start.js"))).text();
    expect(start).toContain('url: "/api/docs/json"');
    expect((await app.handle(request("/api/docs/assets/..%2Fpackage.json"))).status).toBe(404);
    expect((await app.handle(request("/api/docs/json"))).status).toBe(200);
  });

  test("in production only the JSON document is served", async () => {
    const { app: production, context } = await makeTestApp({
      APP_MODE: "production",
      PUBLIC_URL: "https://kannt.example",
      GOOGLE_CLIENT_ID: "1234-kannt.apps.googleusercontent.com",
      YANDEX_CLIENT_ID: "kannt-yandex-client",
      CLOUDPAYMENTS_PUBLIC_ID: "pk_live_kannt",
      CLOUDPAYMENTS_API_URL: "https://127.0.0.1:9/",
      SMTP_URL: "smtps://user:password@127.0.0.1:9",
    });
    onTestFinished(() => context.mail.close());
    for (const path of ["/api/docs", "/api/docs/assets/swagger-ui-bundle.js"]) {
      const response = await production.handle(request(path));
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({
        success: false,
        error: {
          code: "docs_not_served",
          message: "In production only the OpenAPI document is served, at /api/docs/json.",
        },
      });
    }
    const document = await production.handle(request("/api/docs/json"));
    expect(document.status).toBe(200);
    expect(((await document.json()) as { paths: Record<string, unknown> }).paths).toHaveProperty(
      "/api/health",
    );
  });

  test("an unknown API path is a 404 JSON error, not a page", async () => {
    const response = await app.handle(request("/api/no-such-thing"));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      success: false,
      error: { code: "not_found", message: "There is no such API endpoint." },
    });
  });
});
