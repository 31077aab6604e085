import { describe, expect, test } from "vitest";
import {
  clientAgents,
  clientOf,
  formatForUserAgent,
} from "../../../../bff/modules/access/subscription/client-agents";
import { compareVersions } from "../../../../bff/modules/access/subscription/client-version";

/** DESIGN §8: the User-Agent table, with the agents the apps really send. */
describe("the body an app gets, by its User-Agent", () => {
  test.each([
    ["HiddifyNext/4.0.0 (android) like ClashMeta v2ray sing-box", "Hiddify", "singbox", "singbox"],
    ["SFA/1.12.3 (Android 14; sing-box 1.12.3)", "sing-box", "singbox", "singbox"],
    ["SFI/1.11.0 (iOS; sing-box 1.11.0)", "sing-box", "singbox", "singbox"],
    ["karing/1.1.2.606 android", "karing", "singbox", "singbox"],
    ["FlClash X/v0.8.83 Platform/android", "FlClash", "clash", "mihomo"],
    ["FlClash/v0.8.80 clash-verge Platform/android", "FlClash", "clash", "mihomo"],
    ["Stash/3.1.1 Clash/1.9.0", "Stash", "clash", "mihomo"],
    ["clash-verge/v2.2.3", "Clash Verge", "clash", "mihomo"],
    ["mihomo/1.19.0", "Mihomo", "clash", "mihomo"],
    ["ClashMetaForAndroid/2.11.2.Meta", "Mihomo", "clash", "mihomo"],
    ["Happ/3.8.1", "Happ", "xray", "xray"],
    ["Streisand/1.6.34 CFNetwork/1490", "Streisand", "xray", "xray"],
    ["V2Box/2.5 (iOS)", "V2Box", "xray", "xray"],
    ["v2rayNG/1.10.7", "v2rayNG", "xray", "xray"],
    ["v2rayN/7.12.5", "v2rayN", "xray", "xray"],
    ["v2RayTun/5.11.63 (iOS)", "v2RayTun", "base64", "xray"],
    ["curl/8.0", undefined, "base64", "xray"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0",
      undefined,
      "base64",
      "xray",
    ],
    [null, undefined, "base64", "xray"],
  ])("%s → %s, %s, %s family", (agent, app, format, family) => {
    const client = clientOf(agent);
    expect({ app: client.app, format: client.format, family: client.family }).toEqual({
      app,
      format,
      family,
    });
    expect(formatForUserAgent(agent)).toBe(format);
  });

  test("an app older than its Xray JSON support gets base64", () => {
    expect(clientOf("v2rayNG/1.8.28")).toMatchObject({
      app: "v2rayNG",
      format: "base64",
      appVersion: "1.8.28",
    });
    expect(clientOf("v2rayNG/1.8.29").format).toBe("xray");
    expect(clientOf("v2rayN/6.39").format).toBe("base64");
    expect(clientOf("Happ/1.63.0").format).toBe("base64");
    expect(clientOf("Happ/1.63.1").format).toBe("xray");
  });

  test("the core's version where the agent names it", () => {
    expect(clientOf("SFA/1.12.3 (Android 14; sing-box 1.12.3)").coreVersion).toBe("1.12.3");
    expect(clientOf("SFI/1.11.0 (iOS; sing-box 1.11.0)").coreVersion).toBe("1.11.0");
    expect(clientOf("sing-box 1.13.1").coreVersion).toBe("1.13.1");
    expect(clientOf("HiddifyNext/4.0.0 (android) like ClashMeta v2ray sing-box").coreVersion).toBeUndefined();
    expect(clientOf("v2rayNG/1.10.7").coreVersion).toBeUndefined();
    expect(clientOf("Streisand/1.6 Xray/1.8.4").coreVersion).toBe("1.8.4");
  });

  test("every row names its app, and every app reads a format of the four", () => {
    for (const row of clientAgents) {
      expect(row.app.length).toBeGreaterThan(0);
      expect(["base64", "singbox", "clash", "xray"]).toContain(row.format);
    }
  });

  test("versions compare part by part", () => {
    expect(compareVersions("1.8.29", "1.8.3")).toBe(1);
    expect(compareVersions("v0.8.83", "0.8.83")).toBe(0);
    expect(compareVersions("1.12", "1.12.0")).toBe(0);
    expect(compareVersions("1.8.1", "26.3.27")).toBe(-1);
  });
});
