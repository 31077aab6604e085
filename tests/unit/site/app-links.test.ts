import { describe, expect, test } from "vitest";
import { appLinks } from "../../../src/lib/app-links";

const url = "https://kannt.example/sub/Abc-123_x";
const hrefOf = (app: string) => appLinks(url).find((link) => link.app === app)?.href;

describe("open-in-app links", () => {
  test("each app gets the link in the form its makers publish", () => {
    const encoded = encodeURIComponent(url);
    expect(hrefOf("Happ")).toBe(`happ://add/${url}`);
    expect(hrefOf("v2RayTun")).toBe(`v2raytun://import/${url}`);
    expect(hrefOf("Hiddify")).toBe(`hiddify://import/${url}#Kannt`);
    expect(hrefOf("Streisand")).toBe(`streisand://import/${url}#Kannt`);
    expect(hrefOf("v2rayNG")).toBe(`v2rayng://install-config?url=${encoded}#Kannt`);
    expect(hrefOf("FlClash / Clash")).toBe(`clash://install-config?url=${encoded}&name=Kannt`);
    expect(hrefOf("sing-box")).toBe(`sing-box://import-remote-profile?url=${encoded}#Kannt`);
  });

  test("a link that carries its own query survives inside the apps' url parameter", () => {
    const withQuery = "https://kannt.example/sub/t?x=1&y=2";
    for (const { href } of appLinks(withQuery).filter((link) => link.href.includes("?url="))) {
      const parameter = new URL(href.replace(/^[a-z0-9-]+:\/\//, "https://host/")).searchParams.get("url");
      expect(parameter, href).toBe(withQuery);
    }
  });
});
