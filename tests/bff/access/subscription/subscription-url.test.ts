import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { randomToken } from "../../../../bff/platform/random";
import { dayMs } from "../../../../core/calendar";
import { makeTestApp, request } from "../../../helpers/app";
import { fixture } from "../../../helpers/customers";
import { reportedNode } from "../../../helpers/nodes";
import { inbounds } from "../../../helpers/subscription-inbounds";

const { app, context } = await makeTestApp();
const { database, clock, config } = context;
const cabinetUrl = `${config.publicUrl}/profile`;

/**
 * Nodes as their agents reported themselves: two enabled, one disabled, one silent for two
 * days (wall clock), one not reported yet.
 */
async function reportNode(
  name: string,
  host: string | null,
  reported: object[],
  disabled = false,
  lastSeenAt = Date.now(),
) {
  await reportedNode(
    database,
    { name, host, inbounds: reported, disabledAt: disabled ? clock.now() : null, lastSeenAt },
    clock.now(),
  );
}
await reportNode("Amsterdam", "nl.example.com", [inbounds.realityVision, inbounds.xhttp]);
await reportNode("Frankfurt", "de.example.com", [inbounds.tlsWs]);
await reportNode("Old", "old.example.com", [inbounds.plainTcp], true);
await reportNode("Silent", "silent.example.com", [inbounds.plainTcp], false, Date.now() - 2 * dayMs);
await reportNode("Fresh", null, []);
const amsterdam = await database.get<{ id: number }>("SELECT id FROM vpn_nodes WHERE name = ?", [
  "Amsterdam",
]);

type Customer = { userId: number; deviceId: number; credential: string; token: string };

/**
 * A customer in a subscription state with one device connected from the cabinet (no name,
 * platform 'other', no first activation yet), given its credential and token as the connect
 * call does.
 */
async function customerWithDevice(
  email: string,
  status: "ACTIVE" | "CANCELED" | "CANCELED_OVER" | "EXPIRED",
  language: "ru" | "en" = "en",
): Promise<Customer> {
  const { userId } = await fixture(app, { email, status, devices: 1, language });
  const credential = randomUUID();
  const token = randomToken(24);
  await database.run(
    `UPDATE devices SET credential = ?, node_tag = ?, sub_token = ?, device_name = '', platform = 'other',
       first_activation_at = NULL WHERE user_id = ?`,
    [credential, `d${userId}`, token, userId],
  );
  const device = await database.get<{ id: number }>("SELECT id FROM devices WHERE user_id = ?", [userId]);
  return { userId, deviceId: device?.id ?? 0, credential, token };
}

const fetchSubscription = (token: string, headers: Record<string, string> = {}, query = "") =>
  app.handle(request(`/sub/${token}${query}`, { headers }));

const decodeBase64 = (text: string) => Buffer.from(text, "base64").toString("utf8");
const headerWords = (value: string | null) =>
  value?.startsWith("base64:") ? decodeBase64(value.slice(7)) : (value ?? "");

const deviceRow = (deviceId: number) =>
  database.get<{
    device_name: string;
    platform: string;
    first_activation_at: number | null;
    hwid: string | null;
    device_os: string | null;
    device_model: string | null;
  }>(
    "SELECT device_name, platform, first_activation_at, hwid, device_os, device_model FROM devices WHERE id = ?",
    [deviceId],
  );

describe("GET /sub/{token}", () => {
  test("v2RayTun gets base64 share links of the enabled nodes, with the profile headers", async () => {
    const customer = await customerWithDevice("sub-happ@example.com", "ACTIVE");
    const today = Math.floor(clock.now() / dayMs);
    const monthStart = Math.floor(
      Date.UTC(new Date(clock.now()).getUTCFullYear(), new Date(clock.now()).getUTCMonth(), 1) / dayMs,
    );
    await database.run(
      "INSERT INTO device_traffic (device_id, day, node_id, upload, download) VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)",
      [
        customer.deviceId,
        today,
        amsterdam?.id ?? 0,
        1000,
        50_000,
        customer.deviceId,
        monthStart - 1,
        amsterdam?.id ?? 0,
        7,
        7,
      ],
    );
    const response = await fetchSubscription(customer.token, {
      "user-agent": "v2RayTun/5.11.63 (iOS)",
      "x-hwid": "hwid-1",
      "x-device-os": "iOS",
      "x-device-model": "iPhone 15 Pro",
    });
    expect(response.status).toBe(200);
    const subscription = await database.get<{ end_date: number }>(
      "SELECT end_date FROM subscriptions WHERE user_id = ?",
      [customer.userId],
    );
    expect(response.headers.get("subscription-userinfo")).toBe(
      `upload=1000; download=50000; total=0; expire=${Math.floor((subscription?.end_date ?? 0) / 1000)}`,
    );
    expect(headerWords(response.headers.get("profile-title"))).toBe("Kannt · iPhone 15 Pro");
    expect(response.headers.get("profile-update-interval")).toBe("12");
    expect(response.headers.get("support-url")).toBe("https://t.me/kannt_support_bot");
    expect(response.headers.get("profile-web-page-url")).toBe(cabinetUrl);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="kannt.txt"');
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("announce")).toBeNull();
    expect(response.headers.get("routing")).toMatch(/^happ:\/\/routing\/onadd\//);
    expect(response.headers.get("new-domain")).toBeNull();
    const links = decodeBase64(await response.text()).split("\n");
    expect(links.map((link) => decodeURIComponent(new URL(link).hash.slice(1)))).toEqual([
      "Kannt · Amsterdam",
      "Kannt · Amsterdam 2",
      "Kannt · Frankfurt",
    ]);
    for (const link of links) expect(new URL(link).username).toBe(customer.credential);
    expect(Object.fromEntries(new URL(links[0] ?? "").searchParams)).toMatchObject({
      security: "reality",
      flow: "xtls-rprx-vision",
      pbk: inbounds.realityVision.publicKey,
    });
  });

  test("the first fetch names the device, sets its platform and first activation; later ones change nothing", async () => {
    const customer = await customerWithDevice("sub-first@example.com", "ACTIVE");
    const before = clock.now();
    const first = await fetchSubscription(customer.token, {
      "user-agent": "v2RayTun/5.11",
      "x-hwid": "A1B2C3",
      "x-device-os": "Android",
      "x-device-model": "Pixel 8",
    });
    expect(first.status).toBe(200);
    const recorded = await deviceRow(customer.deviceId);
    expect(recorded).toMatchObject({
      device_name: "Pixel 8",
      platform: "android",
      hwid: "A1B2C3",
      device_os: "Android",
      device_model: "Pixel 8",
    });
    expect(recorded?.first_activation_at).toBeGreaterThanOrEqual(before);
    expect(recorded?.first_activation_at).toBeLessThanOrEqual(clock.now());

    await fetchSubscription(customer.token, {
      "x-hwid": "OTHER",
      "x-device-os": "Windows",
      "x-device-model": "ThinkPad",
    });
    expect(await deviceRow(customer.deviceId)).toEqual(recorded);
  });

  test("without a model or OS the app's name names the device; bad header values never break the answer", async () => {
    const named = await customerWithDevice("sub-app-name@example.com", "ACTIVE");
    await fetchSubscription(named.token, { "user-agent": "Streisand/1.6.34 CFNetwork/1490" });
    expect(await deviceRow(named.deviceId)).toMatchObject({ device_name: "Streisand", platform: "other" });

    const odd = await customerWithDevice("sub-odd-headers@example.com", "ACTIVE");
    const response = await fetchSubscription(odd.token, {
      "x-hwid": "h".repeat(500),
      "x-device-os": "\u0001\u0002",
      "x-device-model": `Galaxy\tS24 ${"x".repeat(300)}`,
    });
    expect(response.status).toBe(200);
    const row = await deviceRow(odd.deviceId);
    expect(row).toMatchObject({ hwid: null, device_os: null, platform: "other" });
    expect(row?.device_name.startsWith("Galaxy S24 x")).toBe(true);
    expect(Array.from(row?.device_name ?? "")).toHaveLength(64);
  });

  test("sing-box and Hiddify get sing-box JSON, the Clash family YAML, the Xray apps Xray JSON, ?format= overrides", async () => {
    const customer = await customerWithDevice("sub-formats@example.com", "ACTIVE");
    for (const agent of [
      "SFA/1.12.4 (Android 14; sing-box 1.12.4)",
      "HiddifyNext/2.5.7 (android) like ClashMeta",
    ]) {
      const response = await fetchSubscription(customer.token, { "user-agent": agent });
      expect(response.headers.get("content-type")).toContain("application/json");
      const config = JSON.parse(await response.text()) as { outbounds: { tag: string; uuid?: string }[] };
      // XHTTP is not a sing-box transport: Amsterdam's second inbound is not offered here.
      expect(config.outbounds.filter((outbound) => outbound.uuid).map((outbound) => outbound.tag)).toEqual([
        "Kannt · Amsterdam",
        "Kannt · Frankfurt",
      ]);
      expect(
        config.outbounds.every((outbound) => !outbound.uuid || outbound.uuid === customer.credential),
      ).toBe(true);
    }
    for (const agent of ["clash-verge/v2.2.3", "mihomo/1.19", "FlClash/0.8", "Stash/2.4.7"]) {
      const response = await fetchSubscription(customer.token, { "user-agent": agent });
      expect(response.headers.get("content-disposition")).toBe('attachment; filename="kannt.yaml"');
      const document = Bun.YAML.parse(await response.text()) as { proxies: { name: string; uuid: string }[] };
      expect(document.proxies.map((proxy) => proxy.name)).toEqual([
        "Kannt · Amsterdam",
        "Kannt · Amsterdam 2",
        "Kannt · Frankfurt",
      ]);
    }
    for (const agent of ["Happ/3.8.1", "v2rayNG/1.10.7", "v2rayN/7.12.5", "Streisand/1.6.34", "V2Box/2.5"]) {
      const response = await fetchSubscription(customer.token, { "user-agent": agent });
      expect(response.headers.get("content-disposition")).toBe('attachment; filename="kannt-xray.json"');
      expect(response.headers.get("routing")).toMatch(/^happ:\/\/routing\/onadd\//);
      const configs = JSON.parse(await response.text()) as {
        remarks: string;
        outbounds: { tag: string; settings?: { vnext?: { users: { id: string }[] }[] } }[];
      }[];
      expect(configs.map((config) => config.remarks)).toEqual([
        "Kannt · Amsterdam",
        "Kannt · Amsterdam 2",
        "Kannt · Frankfurt",
      ]);
      for (const config of configs)
        expect(config.outbounds[0]?.settings?.vnext?.[0]?.users[0]?.id).toBe(customer.credential);
    }
    const forced = await fetchSubscription(customer.token, { "user-agent": "Happ/3" }, "?format=clash");
    expect(forced.headers.get("content-type")).toContain("text/yaml");
    expect(forced.headers.get("routing")).toBeNull();
    const wrong = await fetchSubscription(customer.token, {}, "?format=xml");
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("base64, singbox, clash, xray");
  });

  test("a cancelled subscription expires at its period's end and keeps its links", async () => {
    const customer = await customerWithDevice("sub-cancelled@example.com", "CANCELED");
    const response = await fetchSubscription(customer.token);
    const subscription = await database.get<{ end_date: number }>(
      "SELECT end_date FROM subscriptions WHERE user_id = ?",
      [customer.userId],
    );
    expect(response.headers.get("subscription-userinfo")).toBe(
      `upload=0; download=0; total=0; expire=${Math.floor((subscription?.end_date ?? 0) / 1000)}`,
    );
    expect(decodeBase64(await response.text()).split("\n")).toHaveLength(3);
  });

  test("after access ends: 200, no server, a note in the customer's language saying where to renew", async () => {
    const customer = await customerWithDevice("sub-ended@example.com", "EXPIRED", "ru");
    // No agent, model or OS: the device keeps the placeholder name, in Russian.
    const response = await fetchSubscription(customer.token);
    expect(response.status).toBe(200);
    const note = `Подписка закончилась — продлите на ${cabinetUrl}`;
    const [line, ...rest] = decodeBase64(await response.text()).split("\n");
    expect(rest).toEqual([]);
    const url = new URL(line ?? "");
    expect(`${url.hostname}:${url.port}`).toBe("0.0.0.0:1");
    expect(url.username).not.toBe(customer.credential);
    expect(decodeURIComponent(url.hash.slice(1))).toBe(note);
    expect(headerWords(response.headers.get("announce"))).toBe(note);
    expect(headerWords(response.headers.get("profile-title"))).toBe("Kannt · Новое устройство");
    // The moment access ended, in the past: the apps show it as expired (0 would read "never").
    const ended = await database.get<{ end_date: number }>(
      "SELECT end_date FROM subscriptions WHERE user_id = ?",
      [customer.userId],
    );
    const endedAt = Math.floor(Number(ended?.end_date) / 1000);
    expect(endedAt).toBeGreaterThan(0);
    expect(endedAt * 1000).toBeLessThanOrEqual(clock.now());
    expect(response.headers.get("subscription-userinfo")).toMatch(
      new RegExp(`; total=0; expire=${endedAt}$`),
    );

    const singBox = JSON.parse(
      await (await fetchSubscription(customer.token, {}, "?format=singbox")).text(),
    ) as {
      outbounds: { tag: string; server?: string }[];
    };
    expect(singBox.outbounds.filter((outbound) => outbound.server)).toEqual([
      expect.objectContaining({ tag: note, server: "0.0.0.0", server_port: 1 }),
    ]);
    const clash = Bun.YAML.parse(
      await (await fetchSubscription(customer.token, {}, "?format=clash")).text(),
    ) as {
      proxies: { name: string; server: string; port: number }[];
    };
    expect(clash.proxies).toEqual([expect.objectContaining({ name: note, server: "0.0.0.0", port: 1 })]);
  });

  test("an unlinked device gets the note that it was removed although the account still has access", async () => {
    const customer = await customerWithDevice("sub-unlinked@example.com", "ACTIVE");
    await database.run("UPDATE devices SET is_active = 0, detached_at = ? WHERE id = ?", [
      clock.now(),
      customer.deviceId,
    ]);
    const response = await fetchSubscription(customer.token);
    expect(response.status).toBe(200);
    const lines = decodeBase64(await response.text()).split("\n");
    expect(lines).toHaveLength(1);
    expect(decodeURIComponent(new URL(lines[0] ?? "").hash.slice(1))).toBe(
      `This device was unlinked — connect it again at ${cabinetUrl}`,
    );
    // An unlinked device's record is not completed by a copied link still fetching.
    expect((await deviceRow(customer.deviceId))?.first_activation_at).toBeNull();
  });

  test("an unknown token is 404 in plain text; only GET and HEAD read", async () => {
    const unknown = await fetchSubscription(randomToken(24));
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toContain("text/plain");
    expect(await unknown.text()).toBe("No such subscription.");
    expect((await fetchSubscription("short")).status).toBe(404);
    expect((await fetchSubscription(`${randomToken(24)}%00`)).status).toBe(404);
    const customer = await customerWithDevice("sub-methods@example.com", "ACTIVE");
    const post = await app.handle(request(`/sub/${customer.token}`, { method: "POST" }));
    expect(post.status).toBe(405);
    const head = await app.handle(request(`/sub/${customer.token}`, { method: "HEAD" }));
    expect(head.status).toBe(200);
    expect(head.headers.get("subscription-userinfo")).toContain("total=0");
    expect((await deviceRow(customer.deviceId))?.first_activation_at).toBeNull();
  });
});
