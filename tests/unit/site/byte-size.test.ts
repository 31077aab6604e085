import { describe, expect, test } from "vitest";
import { formatBytes } from "../../../src/lib/byte-size";

// Intl writes a narrow no-break space in some locales' groups and units; compare words, not spaces.
const plain = (text: string) => text.replace(/\s/g, " ");

describe("traffic in the reader's language", () => {
  test("picks kB, MB, GB or TB so the number stays short", () => {
    expect(plain(formatBytes(0, "en"))).toBe("0 kB");
    expect(plain(formatBytes(1_500, "en"))).toBe("1.5 kB");
    expect(plain(formatBytes(999_400, "en"))).toBe("999 kB");
    // Rounded to "1,000 kB" it would read longer than the next unit does.
    expect(plain(formatBytes(999_600, "en"))).toBe("1 MB");
    expect(plain(formatBytes(25_300_000, "en"))).toBe("25 MB");
    expect(plain(formatBytes(1_234_000_000, "en"))).toBe("1.2 GB");
    expect(plain(formatBytes(3_000_000_000_000, "en"))).toBe("3 TB");
  });

  test("writes the decimal mark and unit of the reader's language", () => {
    expect(plain(formatBytes(1_234_000_000, "ru"))).toBe("1,2 ГБ");
    expect(plain(formatBytes(1_234_000_000, "kk"))).toBe("1,2 ГБ");
    expect(plain(formatBytes(1_234_000_000, "zh"))).toBe("1.2 GB");
  });

  test("a negative count (never expected) reads as nothing used", () => {
    expect(plain(formatBytes(-5, "en"))).toBe("0 kB");
  });
});
