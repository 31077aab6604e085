import { describe, expect, test } from "vitest";
import { company } from "../../src/content/company";
import { supportLink, supportStartParameter } from "../../src/lib/support-link";

describe("support bot start parameter", () => {
  test("is base64 of the stored e-mail", () => {
    expect(supportStartParameter("anna@example.com")).toBe("YW5uYUBleGFtcGxlLmNvbQ==");
    expect(atob(supportStartParameter("ivan.petrov+vpn@mail.ru"))).toBe("ivan.petrov+vpn@mail.ru");
  });

  test("is empty when no e-mail is stored", () => {
    expect(supportStartParameter(null)).toBe("");
    expect(supportStartParameter("")).toBe("");
    expect(supportLink(undefined)).toBe(`https://t.me/${company.supportBot}?start=`);
  });

  test("encodes non-ASCII e-mails as UTF-8", () => {
    const encoded = supportStartParameter("почта@пример.рф");
    const bytes = Uint8Array.from(atob(encoded), (character) => character.charCodeAt(0));
    expect(new TextDecoder().decode(bytes)).toBe("почта@пример.рф");
  });

  test("the link escapes base64 characters that are special in a URL", () => {
    const email = "a?>@b.c";
    const link = new URL(supportLink(email));
    expect(link.searchParams.get("start")).toBe(supportStartParameter(email));
  });
});
