import { describe, expect, test } from "vitest";
import { company } from "../../../core/company";
import { supportLink, supportStartParameter } from "../../../src/lib/support-link";

/** Decodes base64url without padding back to the e-mail, independently of the product code. */
const decode = (parameter: string) =>
  new TextDecoder().decode(Buffer.from(parameter.replace(/-/g, "+").replace(/_/g, "/"), "base64"));

describe("support bot start parameter", () => {
  test("is the stored e-mail as base64url without padding, which Telegram accepts", () => {
    expect(supportStartParameter("anna@example.com")).toBe("YW5uYUBleGFtcGxlLmNvbQ");
    expect(decode(supportStartParameter("ivan.petrov+vpn@mail.ru"))).toBe("ivan.petrov+vpn@mail.ru");
    // Bytes whose base64 has + and / (here "?>" → "Pz4"… and "~~~" → "fn5+"): never in the parameter.
    for (const email of ["a?>@b.c", "~~~@x.io", "ÿÿ@ÿ.ru", "o?o>o@example.com"]) {
      const parameter = supportStartParameter(email);
      expect(parameter).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decode(parameter)).toBe(email);
    }
  });

  test("is empty when no e-mail is stored, or when it would exceed Telegram's 64 characters", () => {
    expect(supportStartParameter(null)).toBe("");
    expect(supportStartParameter("")).toBe("");
    expect(supportLink(undefined)).toBe(`https://t.me/${company.supportBot}?start=`);
    const longest = `${"a".repeat(36)}@example.com`; // 48 bytes: 64 characters
    expect(supportStartParameter(longest)).toHaveLength(64);
    expect(supportStartParameter(`a${longest}`)).toBe("");
  });

  test("encodes non-ASCII e-mails as UTF-8", () => {
    expect(decode(supportStartParameter("почта@пример.рф"))).toBe("почта@пример.рф");
  });

  test("the link carries the parameter unescaped", () => {
    const email = "a?>@b.c";
    const link = new URL(supportLink(email));
    expect(link.searchParams.get("start")).toBe(supportStartParameter(email));
    expect(supportLink(email)).toContain(`?start=${supportStartParameter(email)}`);
  });
});
