import { describe, expect, test } from "vitest";
import { runRetention } from "../../../../bff/jobs/retention";
import { fullAllowList } from "../../../../bff/modules/access/subscription/allowlist/allowlist";
import { randomToken } from "../../../../bff/platform/random";
import { apiOf, dataOf, identityOf, sessionOf } from "../../../helpers/api";
import { makeTestApp, request } from "../../../helpers/app";
import { fixture, type SignedIn, signIn } from "../../../helpers/customers";
import { reportedNode } from "../../../helpers/nodes";
import { advanceDays, cards, order, payWithCard, runBilling } from "../../../helpers/payments";
import { inbounds } from "../../../helpers/subscription-inbounds";

/**
 * DESIGN §8 "The subscription answer": a link that gives no access answers 200 with a
 * placeholder (the nil UUID at 0.0.0.0) whose name, and `announce`, say why inside the app,
 * in the customer's language and in every format; a token that never existed stays 404.
 */
type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

const nilUuid = "00000000-0000-0000-0000-000000000000";

async function world(): Promise<TestApp> {
  const testApp = await makeTestApp();
  const { database, clock } = testApp.context;
  await reportedNode(
    database,
    { name: "Amsterdam", host: "nl.example.com", inbounds: [inbounds.realityVision, inbounds.tlsWs] },
    clock.now(),
  );
  return testApp;
}

const cabinetUrl = ({ context }: TestApp) => `${context.config.publicUrl}/profile`;
const decode = (text: string) => Buffer.from(text, "base64").toString("utf8");
const headerWords = (value: string | null) =>
  value?.startsWith("base64:") ? decode(value.slice(7)) : (value ?? "");

const fetchLink = ({ app }: TestApp, token: string, query = "") =>
  app.handle(request(`/sub/${token}${query}`));

/** Asserts the answer is the placeholder `words` alone, with `announce`, in all four formats. */
async function expectPlaceholder(testApp: TestApp, token: string, words: string) {
  const base64 = await fetchLink(testApp, token);
  expect(base64.status).toBe(200);
  expect(headerWords(base64.headers.get("announce"))).toBe(words);
  const lines = decode(await base64.text()).split("\n");
  expect(lines).toHaveLength(1);
  const link = new URL(lines[0] ?? "");
  expect(link.username).toBe(nilUuid);
  expect(`${link.hostname}:${link.port}`).toBe("0.0.0.0:1");
  expect(decodeURIComponent(link.hash.slice(1))).toBe(words);

  const singBox = JSON.parse(await (await fetchLink(testApp, token, "?format=singbox")).text()) as {
    outbounds: { tag: string; server?: string; uuid?: string }[];
  };
  expect(singBox.outbounds.filter((outbound) => outbound.server)).toEqual([
    expect.objectContaining({ tag: words, server: "0.0.0.0", uuid: nilUuid }),
  ]);
  const clash = Bun.YAML.parse(await (await fetchLink(testApp, token, "?format=clash")).text()) as {
    proxies: { name: string; server: string; uuid: string }[];
  };
  expect(clash.proxies).toEqual([expect.objectContaining({ name: words, server: "0.0.0.0", uuid: nilUuid })]);
  const xrayAnswer = await fetchLink(testApp, token, "?format=xray");
  expect(headerWords(xrayAnswer.headers.get("announce"))).toBe(words);
  const xray = JSON.parse(await xrayAnswer.text()) as {
    remarks: string;
    outbounds: { tag: string; settings?: { vnext?: { address: string; users: { id: string }[] }[] } }[];
  }[];
  expect(xray).toHaveLength(1);
  expect(xray[0]?.remarks).toBe(words);
  const server = xray[0]?.outbounds.find((outbound) => outbound.tag === "proxy")?.settings?.vnext?.[0];
  expect(server?.address).toBe("0.0.0.0");
  expect(server?.users[0]?.id).toBe(nilUuid);
}

/** Whether the answer lists the servers with `credential`. */
async function expectServers(testApp: TestApp, token: string, credential: string) {
  const response = await fetchLink(testApp, token);
  expect(response.status).toBe(200);
  const links = decode(await response.text()).split("\n");
  expect(links).toHaveLength(2);
  for (const link of links) expect(new URL(link).username).toBe(credential);
  return response;
}

const tokenOf = (url: string) => url.split("/sub/")[1] ?? "";

async function payingCustomer({ app }: TestApp, email: string, card = cards.success, language = "en") {
  const customer = await signIn(app, email, { period: 1, headers: { "accept-language": language } });
  const widget = await order(app, customer, 1, 1);
  expect((await payWithCard(app, widget.invoiceId, card)).success).toBe(true);
  return customer;
}

/** The customer's cabinet calls about their devices and account. */
function cabinetOf({ app }: TestApp, customer: SignedIn) {
  const { profile } = apiOf(app);
  const me = identityOf(customer);
  const session = sessionOf(customer);
  return {
    connect: () => profile.devices.connect.post(me, session),
    resetLink: (deviceId: string) => profile.devices.resetLink.post({ ...me, deviceId }, session),
    detach: (deviceId: string) => profile.detachDevice.post({ ...me, deviceId }, session),
    deleteAccount: () => profile.delete.post({ ...me, confirm: true }, session),
  };
}

async function connected(testApp: TestApp, customer: SignedIn) {
  const { deviceId, subscriptionUrl } = await dataOf(cabinetOf(testApp, customer).connect());
  const { context } = testApp;
  const row = await context.database.get<{ credential: string }>(
    "SELECT credential FROM devices WHERE device_id = ?",
    [deviceId],
  );
  return { deviceId, token: tokenOf(subscriptionUrl), credential: row?.credential ?? "" };
}

describe("a device beyond its slots", () => {
  test("after a new purchase with fewer slots, the younger device's link says so in every format, and the nodes refuse exactly it", async () => {
    const testApp = await world();
    const { app, context } = testApp;
    const { database, clock } = context;
    // Two devices in use from a period that had two slots; the new purchase has one.
    const { userId } = await fixture(app, {
      email: "beyond@example.com",
      status: "ACTIVE",
      devices: 2,
      language: "ru",
    });
    const rows = await database.all<{
      id: number;
      device_id: string;
      credential: string;
      created_at: number;
    }>("SELECT id, device_id, credential, created_at FROM devices WHERE user_id = ? ORDER BY created_at", [
      userId,
    ]);
    const [older, younger] = rows.map((row) => ({ ...row, token: randomToken(24) }));
    if (!older || !younger) throw new Error("two devices expected");
    for (const device of [older, younger])
      await database.run("UPDATE devices SET sub_token = ? WHERE id = ?", [device.token, device.id]);

    await expectServers(testApp, older.token, older.credential);
    await expectPlaceholder(
      testApp,
      younger.token,
      `Для этого устройства нет свободного места — добавьте место или отвяжите устройство на ${cabinetUrl(testApp)}`,
    );
    const allowed = (await fullAllowList(database, clock.now())).map((entry) => entry.id);
    expect(allowed).toContain(older.credential);
    expect(allowed).not.toContain(younger.credential);
  });
});

describe("links that no longer give access", () => {
  test("a replaced link says so, an unlinked device's link says it was removed, a token never issued stays 404", async () => {
    const testApp = await world();
    const { app } = testApp;
    const customer = await payingCustomer(testApp, "retired@example.com", cards.success, "kk");
    const first = await connected(testApp, customer);
    await expectServers(testApp, first.token, first.credential);

    const rotated = await dataOf(cabinetOf(testApp, customer).resetLink(first.deviceId));
    const second = tokenOf(rotated.subscriptionUrl);
    await expectPlaceholder(
      testApp,
      first.token,
      `Бұл сілтеме ауыстырылды — жаңасын ${cabinetUrl(testApp)} сайтынан қосыңыз`,
    );

    const unlinked = await cabinetOf(testApp, customer).detach(first.deviceId);
    expect(unlinked.status).toBe(200);
    const removed = `Бұл құрылғы ажыратылған — оны ${cabinetUrl(testApp)} сайтында қайта қосыңыз`;
    await expectPlaceholder(testApp, second, removed);
    // The first link was replaced before the device went: it keeps saying so.
    expect(headerWords((await fetchLink(testApp, first.token)).headers.get("announce"))).toContain(
      "ауыстырылды",
    );
    expect((await fetchLink(testApp, randomToken(24))).status).toBe(404);

    // Retention forgets them with the connection logs; then they are unknown like any other token.
    await advanceDays(app, testApp.context.config.logRetentionDays + 1);
    await runRetention(testApp.context);
    expect((await fetchLink(testApp, second)).status).toBe(404);
  });

  test("deleting the account takes its retired links with it", async () => {
    const testApp = await world();
    const customer = await payingCustomer(testApp, "retired.delete@example.com");
    const device = await connected(testApp, customer);
    await cabinetOf(testApp, customer).detach(device.deviceId);
    expect((await fetchLink(testApp, device.token)).status).toBe(200);
    const deleted = await cabinetOf(testApp, customer).deleteAccount();
    expect(deleted.status, JSON.stringify(deleted.error?.value)).toBe(200);
    expect((await fetchLink(testApp, device.token)).status).toBe(404);
  });
});

describe("payment failed", () => {
  test("while a declined renewal is tried again the servers stay with an announce; once access ends, the placeholder says the payment failed", async () => {
    const testApp = await world();
    const { app } = testApp;
    const customer = await payingCustomer(testApp, "declined@example.com", cards.firstThenDeclined, "zh");
    const device = await connected(testApp, customer);
    // The notice goes a day ahead; the trial's day runs out and the renewal is declined.
    await runBilling(app);
    await advanceDays(app, 1.01);
    await runBilling(app);
    const retrying = await expectServers(testApp, device.token, device.credential);
    expect(headerWords(retrying.headers.get("announce"))).toBe(
      `续订付款失败 — 请在 ${cabinetUrl(testApp)} 检查您的银行卡`,
    );
    for (let day = 0; day < 5; day++) {
      await advanceDays(app, 1);
      await runBilling(app);
    }
    await expectPlaceholder(testApp, device.token, `付款失败，访问已结束 — 请在 ${cabinetUrl(testApp)} 续订`);
  });

  test("a subscription that ended by a lapse still says it ended", async () => {
    const testApp = await world();
    const { app, context } = testApp;
    const { userId } = await fixture(app, { email: "lapsed@example.com", status: "EXPIRED", devices: 1 });
    const token = randomToken(24);
    await context.database.run("UPDATE devices SET sub_token = ? WHERE user_id = ?", [token, userId]);
    await expectPlaceholder(testApp, token, `Subscription ended — renew at ${cabinetUrl(testApp)}`);
  });
});
