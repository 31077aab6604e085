import { describe, expect, test } from "vitest";
import { entriesFor } from "../../../../bff/modules/access/subscription/answer-body";
import { clientOf } from "../../../../bff/modules/access/subscription/client-agents";
import {
  isAdmitted,
  presentedRealityVersion,
} from "../../../../bff/modules/access/subscription/reality-admission";
import { parseInbounds } from "../../../../bff/modules/access/subscription/server-entries";
import { entry, inbounds } from "../../../helpers/subscription-inbounds";

/** DESIGN §8 "REALITY and client versions". */
const strict = { ...inbounds.realityVision, minClientVer: "26.3.27" };
const lenient = { ...inbounds.realityVision, minClientVer: "1.8.0" };

describe("which client family a REALITY inbound lets in", () => {
  test("sing-box presents 1.8.1 and Mihomo 1.8.2 whatever their own version; Xray its own, or current", () => {
    expect(presentedRealityVersion(clientOf("SFA/1.12.3 (Android 14; sing-box 1.12.3)"))).toBe("1.8.1");
    expect(
      presentedRealityVersion(clientOf("HiddifyNext/4.0.0 (android) like ClashMeta v2ray sing-box")),
    ).toBe("1.8.1");
    expect(presentedRealityVersion(clientOf("FlClash X/v0.8.83 Platform/android"))).toBe("1.8.2");
    expect(presentedRealityVersion(clientOf("Happ/3.8.1"))).toBeUndefined();
    expect(presentedRealityVersion(clientOf("Streisand/1.6 Xray/1.8.4"))).toBe("1.8.4");
  });

  test("an inbound with minClientVer 26.3.27 refuses sing-box and Mihomo apps, not Xray ones", () => {
    expect(isAdmitted(strict, clientOf("SFA/1.12.3 (Android 14; sing-box 1.12.3)"))).toBe(false);
    expect(isAdmitted(strict, clientOf("karing/1.1.2.606 android"))).toBe(false);
    expect(isAdmitted(strict, clientOf("clash-verge/v2.2.3"))).toBe(false);
    expect(isAdmitted(strict, clientOf("Stash/3.1.1 Clash/1.9.0"))).toBe(false);
    expect(isAdmitted(strict, clientOf("Happ/3.8.1"))).toBe(true);
    expect(isAdmitted(strict, clientOf("v2rayNG/1.10.7"))).toBe(true);
    expect(isAdmitted(strict, clientOf(null))).toBe(true);
    // An Xray core the agent names as older than the server allows is refused too.
    expect(isAdmitted(strict, clientOf("Streisand/1.6 Xray/1.8.4"))).toBe(false);
  });

  test("minClientVer 1.8.0, none, or no REALITY: every family", () => {
    for (const agent of ["SFA/1.12.3 (Android 14; sing-box 1.12.3)", "mihomo/1.19.0", "Happ/3.8.1"]) {
      expect(isAdmitted(lenient, clientOf(agent))).toBe(true);
      expect(isAdmitted(inbounds.realityVision, clientOf(agent))).toBe(true);
      expect(isAdmitted({ ...inbounds.tlsWs, minClientVer: "26.3.27" }, clientOf(agent))).toBe(true);
    }
  });

  test("the answer's entries leave out what the family's format or handshake cannot use", () => {
    const all = [
      entry("strict", "a.example.com", strict),
      entry("lenient", "b.example.com", lenient),
      entry("xhttp", "c.example.com", inbounds.xhttp),
    ];
    const names = (agent: string) => {
      const client = clientOf(agent);
      return entriesFor(client.format, client, all).map((item) => item.name);
    };
    expect(names("SFA/1.12.3 (Android 14; sing-box 1.12.3)")).toEqual(["lenient"]);
    expect(names("mihomo/1.19.0")).toEqual(["lenient", "xhttp"]);
    expect(names("Happ/3.8.1")).toEqual(["strict", "lenient", "xhttp"]);
  });

  test("the node report's minClientVer is kept; one unlike a version is dropped", () => {
    const [kept, dropped] = parseInbounds(
      JSON.stringify([
        { ...inbounds.realityVision, minClientVer: "26.3.27" },
        { ...inbounds.realityVision, minClientVer: "latest" },
      ]),
    );
    expect(kept?.minClientVer).toBe("26.3.27");
    expect(dropped).toBeDefined();
    expect(dropped?.minClientVer).toBeUndefined();
  });
});
