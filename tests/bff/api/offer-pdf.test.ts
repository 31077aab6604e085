import { describe, expect, test } from "vitest";
import { makeTestApp, request } from "../../helpers/app";

const { app } = await makeTestApp();

describe("GET /api/get/docs/oferta_kannt.pdf", () => {
  test("is a real PDF", async () => {
    const response = await app.handle(request("/api/get/docs/oferta_kannt.pdf"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    expect(new TextDecoder("latin1").decode(bytes.slice(-1024))).toContain("%%EOF");
  });

  test("embeds a font with Cyrillic glyphs rather than a standard Latin-only font", async () => {
    const response = await app.handle(request("/api/get/docs/oferta_kannt.pdf"));
    const text = new TextDecoder("latin1").decode(new Uint8Array(await response.arrayBuffer()));
    expect(text).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans/);
    expect(text).not.toMatch(/\/BaseFont \/Helvetica/);
  });
});
