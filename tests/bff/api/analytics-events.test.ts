import { describe, expect, test } from "vitest";
import { withPeerAddress } from "../../../bff/platform/client-address";
import { analytics } from "../../../db/queries/analytics";
import { apiOf, dataOf } from "../../helpers/api";
import { makeTestApp, postJson } from "../../helpers/app";

const { app, context, clock } = await makeTestApp();
const { database } = context;
const dayMs = 86_400_000;

let nextAddress = 1;
/** Each test sends from its own address, so the flood limit of one never touches another. */
const freshAddress = () => `203.0.113.${nextAddress++}`;

const send = (body: unknown, address: string, contentType = "application/json") =>
  app.handle(withPeerAddress(postJson("/api/events", body, { "content-type": contentType }), address));

const today = () => new Date(clock.now()).toISOString().slice(0, 10);
const countOf = async (day: string, name: string) =>
  (await analytics.daily(database, day, day)).find((row) => row.name === name)?.count ?? 0;

describe("POST /api/events", () => {
  test("counts each of the three names on the UTC day of the billing clock, without a session", async () => {
    const address = freshAddress();
    const firstDay = today();
    for (const name of ["go_support", "purchase_started", "purchase_completed", "go_support"]) {
      const response = await send({ name }, address);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ success: true });
    }
    expect(await countOf(firstDay, "go_support")).toBe(2);
    expect(await countOf(firstDay, "purchase_started")).toBe(1);
    expect(await countOf(firstDay, "purchase_completed")).toBe(1);

    clock.advance(dayMs);
    const secondDay = today();
    expect(secondDay).not.toBe(firstDay);
    expect((await send({ name: "go_support" }, address)).status).toBe(200);
    expect(await countOf(secondDay, "go_support")).toBe(1);
    expect(await countOf(firstDay, "go_support")).toBe(2);
  });

  test("a moment just before and just after UTC midnight lands on two different days", async () => {
    const now = clock.now();
    const toMidnight = dayMs - (now % dayMs);
    clock.advance(toMidnight - 1000);
    const before = today();
    expect((await send({ name: "purchase_completed" }, freshAddress())).status).toBe(200);
    clock.advance(2000);
    const after = today();
    expect((await send({ name: "purchase_completed" }, freshAddress())).status).toBe(200);
    expect(after).not.toBe(before);
    expect(await countOf(before, "purchase_completed")).toBeGreaterThanOrEqual(1);
    expect(await countOf(after, "purchase_completed")).toBe(1);
  });

  test("accepts the JSON Blob that sendBeacon sends (a charset in the content type)", async () => {
    const before = await countOf(today(), "purchase_started");
    const response = await send(
      { name: "purchase_started" },
      freshAddress(),
      "application/json;charset=UTF-8",
    );
    expect(response.status).toBe(200);
    expect(await countOf(today(), "purchase_started")).toBe(before + 1);
  });

  test.each([
    ["an unknown name", { name: "page_view" }, /Unknown event name "page_view".*go_support/],
    ["a name of the wrong type", { name: 5 }, /name/],
    ["no name", {}, /name/],
    ["a name in another letter case", { name: "GO_SUPPORT" }, /Unknown event name/],
  ])("answers 400 with a clear message to %s, counting nothing", async (_, body, message) => {
    const before = await analytics.daily(database, today(), today());
    const response = await send(body, freshAddress());
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { success: boolean; error: { message: string } };
    expect(answer.success).toBe(false);
    expect(answer.error.message).toMatch(message);
    expect(await analytics.daily(database, today(), today())).toEqual(before);
  });

  test("answers 400 to a body that is not JSON", async () => {
    const response = await send("{name: go_support", freshAddress());
    expect(response.status).toBe(400);
    expect(((await response.json()) as { success: boolean }).success).toBe(false);
  });

  test("one address gets 429 past 60 events a minute; another address and the next minute are served", async () => {
    const flooder = freshAddress();
    for (let index = 0; index < 60; index++)
      expect((await send({ name: "go_support" }, flooder)).status).toBe(200);
    const refused = await send({ name: "go_support" }, flooder);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Bad names count toward the flood too, and are refused the same way.
    expect((await send({ name: "page_view" }, flooder)).status).toBe(429);
    expect((await send({ name: "go_support" }, freshAddress())).status).toBe(200);
    clock.advance(61_000);
    expect((await send({ name: "go_support" }, flooder)).status).toBe(200);
  });
});

describe("the daily counts the dashboard reads", () => {
  test("list every day and name in the range, oldest first, and nothing outside it", async () => {
    clock.advance(10 * dayMs);
    const address = freshAddress();
    const days: string[] = [];
    for (let day = 0; day < 3; day++) {
      days.push(today());
      for (let index = 0; index <= day; index++) await send({ name: "purchase_started" }, address);
      clock.advance(dayMs);
    }
    await send({ name: "purchase_started" }, address);
    const rows = await analytics.daily(database, days[0] as string, days[2] as string);
    expect(rows).toEqual([
      { day: days[0], name: "purchase_started", count: 1 },
      { day: days[1], name: "purchase_started", count: 2 },
      { day: days[2], name: "purchase_started", count: 3 },
    ]);
  });

  test("GET /api/dev/events reads them in demo mode and does not exist in production", async () => {
    await send({ name: "go_support" }, freshAddress());
    const counts = apiOf(app).dev.events.get({ query: { from: today() } });
    expect((await counts).status).toBe(200);
    const rows = await dataOf(counts);
    expect(rows.find((row) => row.name === "go_support")?.count).toBeGreaterThanOrEqual(1);

    const production = await makeTestApp({
      APP_MODE: "production",
      PUBLIC_URL: "https://kannt.example",
      GOOGLE_CLIENT_ID: "1234-kannt.apps.googleusercontent.com",
      YANDEX_CLIENT_ID: "kannt-yandex-client",
      CLOUDPAYMENTS_PUBLIC_ID: "pk_live_kannt",
      CLOUDPAYMENTS_API_URL: "https://127.0.0.1:9/",
      SMTP_URL: "smtps://user:password@127.0.0.1:9",
    });
    const productionApi = apiOf(production.app);
    expect((await productionApi.dev.events.get()).status).toBe(404);
    // The events themselves are counted in every mode.
    expect((await productionApi.events.post({ name: "go_support" })).status).toBe(200);
    production.context.mail.close();
  });
});

describe("the flood limit's own upkeep", () => {
  test("windows that ended are swept away, so addresses seen once do not pile up", async () => {
    const throttleRows = async () =>
      (
        await database.get<{ count: number }>(
          "SELECT COUNT(*) AS count FROM login_throttle WHERE throttle_key LIKE 'events:%'",
        )
      )?.count ?? 0;
    for (let index = 0; index < 520; index++)
      await send({ name: "go_support" }, `198.51.100.${index % 250}-${index}`);
    expect(await throttleRows()).toBeGreaterThan(500);
    clock.advance(2 * 60_000);
    for (let index = 0; index < 500; index++) await send({ name: "go_support" }, "192.0.2.200");
    expect(await throttleRows()).toBeLessThan(100);
  });
});
