import { describe, expect, test } from "vitest";
import { isAnotherAccount } from "../../src/lib/account-identity";

const held = { email: "anna@example.com", uid: "uid-anna" };

describe("an arriving identity is another account", () => {
  test("when its e-mail differs", () => {
    expect(isAnotherAccount(held, { email: "boris@example.com", uid: "" })).toBe(true);
  });

  test("when its uid differs, even with the same e-mail (another provider's account)", () => {
    expect(isAnotherAccount(held, { email: "ANNA@example.com", uid: "uid-other" })).toBe(true);
  });

  test("not when it is the same account in another letter case", () => {
    expect(isAnotherAccount(held, { email: " Anna@Example.com", uid: "uid-anna" })).toBe(false);
  });

  test("not when this browser holds no account, or nothing arrives", () => {
    expect(isAnotherAccount({ email: "", uid: "" }, { email: "boris@example.com", uid: "b" })).toBe(false);
    expect(isAnotherAccount(held, { email: "", uid: "" })).toBe(false);
  });
});
