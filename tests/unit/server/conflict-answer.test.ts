import { Elysia } from "elysia";
import { describe, expect, test } from "vitest";
import { errorHandler } from "../../../bff/platform/error-handler";

/** What the postgres driver throws when PostgreSQL gives a transaction up (SQLSTATE in `code`). */
const databaseError = (code: string, message: string) => Object.assign(new Error(message), { code });

const app = new Elysia()
  .use(errorHandler)
  .post("/serialization", () => {
    throw databaseError(
      "40001",
      "could not serialize access due to read/write dependencies among transactions",
    );
  })
  .post("/deadlock", () => {
    throw databaseError("40P01", "deadlock detected");
  })
  .post("/unique", () => {
    throw databaseError("23505", "duplicate key value violates unique constraint");
  });

const call = (path: string, language = "en") =>
  app.handle(
    new Request(`http://localhost${path}`, { method: "POST", headers: { "accept-language": language } }),
  );

describe("a change PostgreSQL gave up for conflicts through all of its retries", () => {
  test.each(["/serialization", "/deadlock"])(
    "%s is 503 with Retry-After: nothing changed, send it again",
    async (path) => {
      const response = await call(path);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      const body = (await response.json()) as { success: boolean; error: { code: string; message: string } };
      expect(body.success).toBe(false);
      expect(body.error.code).toBe("database_busy");
      expect(body.error.message).toMatch(/try again in a few seconds/);
      expect(JSON.stringify(body)).not.toMatch(/serialize|deadlock/);
    },
  );

  test("is worded in the caller's language", async () => {
    const body = (await (await call("/serialization", "ru")).json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/Попробуйте снова через несколько секунд/);
  });

  test("any other database error is still a 500 without internals", async () => {
    const response = await call("/unique");
    expect(response.status).toBe(500);
    expect(response.headers.get("retry-after")).toBeNull();
    const body = (await response.json()) as { error: { code: string } };
    expect(body.error.code).toBe("internal");
    expect(JSON.stringify(body)).not.toMatch(/duplicate/);
  });
});
