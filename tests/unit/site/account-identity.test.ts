import { describe, expect, test } from "vitest";
import { entryQuestion, isAnotherAccount } from "../../../src/lib/account-identity";

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

describe("what an entry page asks before it takes the arriving account", () => {
  const none = { email: "", uid: "" };
  const boris = { email: "boris@example.com", uid: "uid-boris" };
  const inBrowser = { hasCredential: true, isNativeApp: false };

  test("with a credential and no account held, a browser asks to continue as the arriving one", () => {
    expect(entryQuestion(none, boris, inBrowser)).toBe("continue");
  });

  test("the native app, recognised by its bridge, goes straight on", () => {
    expect(entryQuestion(none, boris, { hasCredential: true, isNativeApp: true })).toBe("none");
  });

  test("another account held is a switch, in the app too", () => {
    expect(entryQuestion(held, boris, inBrowser)).toBe("switch");
    expect(entryQuestion(held, boris, { hasCredential: true, isNativeApp: true })).toBe("switch");
  });

  test("the account already held, or no credential, is no question", () => {
    expect(entryQuestion(held, { email: "anna@example.com", uid: "uid-anna" }, inBrowser)).toBe("none");
    expect(entryQuestion(none, boris, { hasCredential: false, isNativeApp: false })).toBe("none");
  });
});
