import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ProductError, parseAllowList, productApi } from "../../../agent/product-api";

/**
 * The agent checks every answer of the product against the node API's one contract
 * (agent/contract/node-api.ts): what does not match is an error, retried, never a list
 * acted on as if it were empty or whole.
 */
describe("answers checked against the node API's contract", () => {
  const entry = { tag: "dev-a", id: randomUUID(), remainingMs: 60_000 };

  test("an allow-list in the contract's shape is taken; an entry whose id no core takes is left out and counted", () => {
    expect(
      parseAllowList({
        version: 3,
        full: true,
        entries: [entry, { ...entry, tag: "dev-b", id: "not-a-uuid" }],
        removed: [],
      }),
    ).toEqual({ version: 3, full: true, entries: [entry], removed: [], skipped: 1 });
  });

  test.each([
    ["a version written as text", { version: "3", full: true, entries: [], removed: [] }, "/version"],
    ["no list of removals", { version: 3, full: false, entries: [] }, "/removed"],
    [
      "an entry's time left as text",
      { version: 3, full: true, entries: [{ ...entry, remainingMs: "60000" }], removed: [] },
      "/entries/0/remainingMs",
    ],
    ["a version below zero", { version: -1, full: true, entries: [], removed: [] }, "/version"],
    ["no answer at all", null, "/"],
  ])("%s is an error naming where the answer left the contract", (_case, body, path) => {
    let thrown: unknown;
    try {
      parseAllowList(body);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProductError);
    expect((thrown as Error).message).toContain(`The allow-list answer is not the node API's (${path}`);
  });

  describe("acknowledgements", () => {
    let server: ReturnType<typeof Bun.serve>;
    let answer: unknown = { success: true, ignored: 0 };
    beforeAll(() => {
      server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json(answer) });
    });
    afterAll(() => server.stop(true));
    const product = () => productApi(`http://127.0.0.1:${server.port}`, "node_key", randomUUID());
    const batch = { traffic: [], connections: [] };

    test("a batch is delivered only when the product acknowledges it as the contract says", async () => {
      answer = { success: true, ignored: 0 };
      await expect(product().events(batch)).resolves.toBeUndefined();
      answer = { success: true };
      await expect(product().events(batch)).rejects.toThrow(/not the node API's \(\/ignored/);
      answer = "OK";
      await expect(product().report({} as never)).rejects.toThrow(
        /POST \/api\/nodes\/report answered something that is not the node API's/,
      );
    });
  });
});
