import { Elysia, t } from "elysia";
import { describe, expect, test } from "vitest";
import { errorHandler } from "../../../bff/platform/error-handler";
import { findForbiddenText, inputGuard } from "../../../bff/platform/input-guard";
import { createReadCache } from "../../../bff/platform/read-cache";
import { pathOf } from "../../../bff/platform/url-path";
import type { Database } from "../../../db/database";
import { seededRandom } from "../../helpers/seeded-random";

describe("the read cache", () => {
  const database = { changeVersion: () => 7, isShared: false } as unknown as Database;
  const clock = { now: () => 1_000 };

  test("answers a hit with the value itself, so a hot route waits on no promise", async () => {
    const cache = createReadCache<string, { n: number }>(database, clock, 1000);
    let computed = 0;
    const compute = async (key: string) => ({ n: ++computed + key.length });
    const miss = cache.get("key", compute);
    expect(miss).toBeInstanceOf(Promise);
    const value = await miss;
    const hit = cache.get("key", compute);
    expect(hit).not.toBeInstanceOf(Promise);
    expect(hit).toBe(value);
    expect(computed).toBe(1);
  });

  test("hands the key to the computation, and takes the caller's reading of the clock", async () => {
    const cache = createReadCache<number, number>(database, clock, 1000);
    expect(await cache.get(21, async (key) => key * 2)).toBe(42);
    expect(cache.get(21, async () => 0, 1_999)).toBe(42);
    // Read as at 2,000 ms by the caller although the cache's clock still says 1,000: too old.
    expect(await cache.get(21, async () => 0, 2_000)).toBe(0);
  });
});

describe("the path of a request URL", () => {
  test.each([
    ["http://127.0.0.1:3000/api/profile", "/api/profile"],
    ["http://127.0.0.1:3000/api/profile?x=1", "/api/profile"],
    ["http://127.0.0.1:3000/api/profile#top", "/api/profile"],
    ["http://127.0.0.1:3000/sub/abc?format=clash#x", "/sub/abc"],
    ["http://127.0.0.1:3000/a#b?c", "/a"],
    ["http://127.0.0.1:3000", "/"],
    ["http://127.0.0.1:3000/", "/"],
  ])("%s is %s", (url, path) => {
    expect(pathOf(url)).toBe(path);
  });
});

describe("the input guard's quick check", () => {
  const echo = new Elysia()
    .use(errorHandler)
    .use(inputGuard)
    .post("/echo", ({ body }) => ({ ok: true, body }), { body: t.Any() });

  const pieces = ["a", "é", "\u0000", "\u001f", "\u007f", "\u0085", "\u202e", "\u2067", "ok", " ", "\u200b"];
  function value(random: () => number, depth: number): unknown {
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)] as T;
    const text = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(pieces)).join("");
    const kind = depth > 2 ? 0 : Math.floor(random() * 4);
    if (kind === 0) return text();
    if (kind === 1) return Math.floor(random() * 100);
    if (kind === 2) return Array.from({ length: Math.floor(random() * 3) }, () => value(random, depth + 1));
    return Object.fromEntries(
      Array.from({ length: Math.floor(random() * 3) }, () => [text(), value(random, depth + 1)]),
    );
  }

  test("refuses exactly the bodies in which the field finder names a field, and names that field", async () => {
    const random = seededRandom(24);
    let refused = 0;
    for (let round = 0; round < 300; round++) {
      const body = { field: value(random, 0) };
      const expected = findForbiddenText(body);
      const response = await echo.handle(
        new Request("http://localhost/echo", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      );
      const label = JSON.stringify(body);
      if (expected === undefined) expect(response.status, label).toBe(200);
      else {
        expect(response.status, label).toBe(400);
        const error = ((await response.json()) as { error: { code: string; message: string } }).error;
        expect(error.code, label).toBe("invisible_character");
        expect(error.message, label).toContain(expected);
        refused++;
      }
    }
    // Both kinds were tried.
    expect(refused).toBeGreaterThan(30);
    expect(refused).toBeLessThan(270);
  });
});
