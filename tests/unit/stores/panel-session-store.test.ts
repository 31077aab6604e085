import { beforeEach, describe, expect, test, vi } from "vitest";

// Browser storage and the address bar are replaced: these tests are about which customer a
// per-customer page shows.
const stored = new Map<string, string>();
vi.stubGlobal("localStorage", {
  getItem: (key: string) => stored.get(key) ?? null,
  setItem: (key: string, value: string) => stored.set(key, value),
  removeItem: (key: string) => stored.delete(key),
});
const address = { href: "" };
const replaceState = vi.fn((_state: unknown, _title: string, url: URL) => {
  address.href = String(url);
});
vi.stubGlobal("location", address);
vi.stubGlobal("history", { replaceState, state: null });

let session: typeof import("../../../src/stores/panel-session");
beforeEach(async () => {
  vi.resetModules();
  vi.clearAllMocks();
  stored.clear();
  session = await import("../../../src/stores/panel-session");
});

describe("the customer a per-customer page shows", () => {
  test("the address's id rules, and is read once per page view", () => {
    stored.set("selected_person", "7");
    address.href = "https://kannt.example/panel-user?id=42";
    expect(session.currentCustomer()).toEqual({ id: 42 });
    address.href = "https://kannt.example/panel-user?id=43";
    expect(session.currentCustomer()).toEqual({ id: 42 });
    expect(replaceState).not.toHaveBeenCalled();
  });

  test("without an id the last choice in this browser is shown and written into the address", () => {
    stored.set("selected_person", "7");
    address.href = "https://kannt.example/panel-logs";
    expect(session.currentCustomer()).toEqual({ id: 7 });
    expect(address.href).toBe("https://kannt.example/panel-logs?id=7");
  });

  test("a malformed id and no choice at all are told apart", async () => {
    address.href = "https://kannt.example/panel-user?id=abc";
    expect(session.currentCustomer()).toEqual({ problem: "invalid" });
    vi.resetModules();
    session = await import("../../../src/stores/panel-session");
    address.href = "https://kannt.example/panel-user";
    expect(session.currentCustomer()).toEqual({ problem: "missing" });
  });

  test("the opened customer is kept under the spec's storage keys", () => {
    session.selectPerson({ id: 42, email: "buyer@example.com", uid: "uid-42" });
    expect(Object.fromEntries(stored)).toEqual({
      selected_person: "42",
      selected_person_email: "buyer@example.com",
      selected_person_uid: "uid-42",
    });
    expect(session.selectedPersonId()).toBe(42);
  });
});
