import { describe, expect, test } from "vitest";
import {
  appNameOf,
  cleanText,
  deviceReportOf,
  platformOf,
} from "../../../../bff/modules/access/subscription/device-report";
import { headerText, profileTitle } from "../../../../bff/modules/access/subscription/profile-headers";
import { monthStartDay } from "../../../../bff/modules/access/subscription/subscription-answer";

describe("what an app reports of the device", () => {
  test("platform from the OS the app names", () => {
    expect(platformOf("iOS")).toBe("ios");
    expect(platformOf("iPadOS 17")).toBe("ios");
    expect(platformOf("Android 14")).toBe("android");
    expect(platformOf("Windows 11")).toBe("windows");
    expect(platformOf("macOS")).toBe("desktop");
    expect(platformOf("Linux")).toBe("desktop");
    expect(platformOf("tvOS")).toBe("other");
    expect(platformOf(undefined)).toBeUndefined();
  });

  test("control characters and direction marks are removed, long values cut, an over-long hwid refused", () => {
    expect(cleanText("iPhone\u0000 15\u202e Pro\t")).toBe("iPhone 15 Pro");
    expect(cleanText("\u0001\u0002 ")).toBeUndefined();
    expect(cleanText("x".repeat(500))).toHaveLength(64);
    const headers = new Headers({
      "x-hwid": "h".repeat(129),
      "x-device-os": "Android",
      "x-device-model": "Pixel 8",
      "user-agent": "v2rayNG/1.9.45",
    });
    expect(deviceReportOf(headers)).toEqual({ os: "Android", model: "Pixel 8", appName: "v2rayNG" });
  });

  test("the app's name from its agent, never a browser's or a generic client's", () => {
    expect(appNameOf("Happ/3.1.2")).toBe("Happ");
    expect(appNameOf("Streisand/1.6 CFNetwork/1490")).toBe("Streisand");
    expect(appNameOf("Mozilla/5.0 (X11)")).toBeUndefined();
    expect(appNameOf("curl/8.5.0")).toBeUndefined();
    expect(appNameOf("no slash")).toBeUndefined();
  });
});

describe("profile headers", () => {
  test("printable ASCII goes as it is; anything else as base64: and its UTF-8 base64", () => {
    expect(headerText("Kannt")).toBe("Kannt");
    const encoded = headerText("Kannt · Новое устройство");
    expect(encoded.startsWith("base64:")).toBe(true);
    expect(Buffer.from(encoded.slice(7), "base64").toString("utf8")).toBe("Kannt · Новое устройство");
  });

  test("the title is the product and the device, within Happ's 25 characters", () => {
    expect(profileTitle("iPhone")).toBe("Kannt · iPhone");
    expect(Array.from(profileTitle("Жаңа құрылғы with a very long model name"))).toHaveLength(25);
  });

  test("the month's first day in device_traffic's days since the epoch (UTC)", () => {
    expect(monthStartDay(Date.UTC(2026, 2, 17, 23, 59))).toBe(Date.UTC(2026, 2, 1) / 86_400_000);
    expect(monthStartDay(Date.UTC(2026, 0, 1))).toBe(Date.UTC(2026, 0, 1) / 86_400_000);
  });
});
