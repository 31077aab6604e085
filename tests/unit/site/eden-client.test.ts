import { afterEach, describe, expect, test, vi } from "vitest";
import { EdenFetchError, edenClient, queryOf, textValue } from "../../../src/lib/eden-client";

type Sent = { url: string; init: RequestInit };
let sent: Sent[] = [];

/** Replaces fetch with one answer; what the client sent is kept in `sent`. */
function answer(body: string, init: ResponseInit = {}): void {
  vi.stubGlobal("fetch", async (url: string, requestInit: RequestInit) => {
    sent.push({ url, init: requestInit });
    return new Response(body, init);
  });
}
const json = { headers: { "content-type": "application/json; charset=utf-8" } };

// The client's shape is Eden's: typed by the server's App, called the same way.
// biome-ignore lint/suspicious/noExplicitAny: the routes of these tests are not the server's.
const api = edenClient<any>("https://kannt.test") as any;

afterEach(() => {
  vi.unstubAllGlobals();
  sent = [];
});

describe("the islands' API client answers as Eden Treaty does", () => {
  test("a POST sends its body as JSON to the path, same-origin, with the given headers", async () => {
    answer(JSON.stringify({ ok: true }), json);
    const result = await api.api.shop.order.post({ tariff: 3 }, { headers: { Authorization: "Bearer x" } });
    expect(sent[0]?.url).toBe("https://kannt.test/api/shop/order");
    expect(sent[0]?.init).toMatchObject({
      method: "POST",
      credentials: "same-origin",
      body: '{"tariff":3}',
      headers: { authorization: "Bearer x", "content-type": "application/json" },
    });
    expect(result).toMatchObject({ data: { ok: true }, error: null, status: 200 });
    expect(result.response).toBeInstanceOf(Response);
  });

  test("a GET sends no body and its query in the address; a one-key object call is a path parameter", async () => {
    answer("[]", json);
    await api.api.panel.audit.get({ query: { page: 2, size: 20, skip: undefined, tags: ["a", "b"] } });
    expect(sent[0]?.url).toBe("https://kannt.test/api/panel/audit?page=2&size=20&tags=a&tags=b");
    expect(sent[0]?.init.body).toBeUndefined();
    await api.api.panel.nodes({ id: 7 }).rotateKey.post({});
    expect(sent[1]?.url).toBe("https://kannt.test/api/panel/nodes/7/rotateKey");
    expect(queryOf({ at: new Date(Date.UTC(2026, 0, 2)), filter: { a: 1 } })).toBe(
      "?at=2026-01-02T00%3A00%3A00.000Z&filter=%7B%22a%22%3A1%7D",
    );
  });

  test("a refusal is an error with its status and parsed body, and no data", async () => {
    answer(JSON.stringify({ error: { code: "trial_already_used", message: "No" } }), {
      status: 409,
      ...json,
    });
    const { data, error, status } = await api.api.register.post({ email: "a@b.c" });
    expect(data).toBeNull();
    expect(status).toBe(409);
    expect(error).toBeInstanceOf(EdenFetchError);
    expect(error).toMatchObject({
      status: 409,
      value: { error: { code: "trial_already_used", message: "No" } },
    });
  });

  test("an unreachable server is status 503 with the thrown error as the value", async () => {
    const thrown = new TypeError("Failed to fetch");
    vi.stubGlobal("fetch", async () => {
      throw thrown;
    });
    const result = await api.api.profile.post({});
    expect(result).toMatchObject({ data: null, status: 503, response: undefined, headers: undefined });
    expect(result.error).toMatchObject({ status: 503, value: thrown });
  });

  test("a body that is not JSON reads as Eden reads it", async () => {
    expect(textValue("42")).toBe(42);
    expect(textValue("true")).toBe(true);
    expect(textValue('{"a":1}')).toEqual({ a: 1 });
    expect(textValue("{not json}")).toBe("{not json}");
    expect(textValue("")).toBe("");
    expect(textValue("2026-01-02T00:00:00Z")).toBe("2026-01-02T00:00:00Z");
    answer("plain words", { status: 200, headers: { "content-type": "text/plain" } });
    expect((await api.api.health.get()).data).toBe("plain words");
  });

  test("the client is not taken for a promise", async () => {
    expect(api.then).toBeUndefined();
    expect(typeof (await Promise.resolve(api))).toBe("function");
  });
});
