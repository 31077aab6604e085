import { describe, expect, test } from "vitest";
import { runRetention } from "../../bff/jobs/retention";
import { createNode } from "../../bff/modules/vpn/service";
import { loadConfig } from "../../bff/platform/config";
import { makeTestApp, postJson, request } from "../helpers/app";
import { asCustomer, signIn } from "../helpers/customers";
import { bearer, makeOperator, tokensFor } from "../helpers/operators";
import { advanceDays, cards, order, payWithCard } from "../helpers/payments";

/** DESIGN §16: a privacy product keeps little, and for a bounded time. */
describe("privacy retention over a test-clock year", () => {
  test("connection logs go after 90 days, addresses are cut to their network after 30, expired sessions go", async () => {
    const { app, context } = await makeTestApp();
    const node = { "x-node-key": await createNode(context.database, "de-fra-1", context.clock.now()) };
    const customer = await signIn(app, "retention@example.com");
    const options = await order(app, customer, 12, 30);
    expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);
    const activated = await app.handle(
      asCustomer(customer, "/api/devices/activate", {
        deviceId: "laptop",
        deviceName: "ThinkPad",
        platform: "windows",
      }),
    );
    expect(activated.status, await activated.clone().text()).toBe(200);
    const { accessKey } = (await activated.json()) as { accessKey: string };
    const userId = Number(options.accountId.replace("customer-", ""));
    const admin = await makeOperator(context, "retention.admin", "admin");

    const connect = async (userIp: string) => {
      const logged = await app.handle(
        postJson("/api/vpn/connections", { accessKey, userIp, success: true }, node),
      );
      expect(logged.status, await logged.clone().text()).toBe(200);
    };
    // A connection every 31 days, alternately over IPv4 and IPv6, a retention run after each,
    // then one today.
    for (let month = 1; month <= 12; month++) {
      await connect(month % 2 ? `198.51.100.${month}` : `2001:db8:abcd:${month}:1:2:3:4`);
      await advanceDays(app, 31);
      await runRetention(context);
    }
    await connect("198.51.100.99");
    await runRetention(context);
    // The panel shows what is kept: the last 90 days (three months), newest first.
    const { accessToken } = await tokensFor(app, admin.username, admin.password);
    const logs = (await (
      await app.handle(
        request(`/api/panel/logs?userId=${userId}`, { method: "POST", headers: bearer(accessToken) }),
      )
    ).json()) as { userIp: string }[];
    // Made today, 31 and 62 days ago (93 days ago and older are gone): today's address is
    // whole, the older ones are cut to their network.
    expect(logs.map((log) => log.userIp)).toEqual(["198.51.100.99", "2001:db8:abcd::/48", "198.51.100.0/24"]);

    // The first payment's address, made a year ago, is cut too; the payment itself stays.
    const payment = await context.database.get<{ ip_address: string | null; status: string }>(
      "SELECT ip_address, status FROM payments WHERE invoice_id = ?",
      [options.invoiceId],
    );
    expect(payment).toEqual({ ip_address: "127.0.0.0/24", status: "completed" });

    // The customer's session ran out 30 days after its last use and is gone from the database.
    const sessions = await context.database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM sessions WHERE user_id = ?",
      [userId],
    );
    expect(sessions?.count).toBe(0);
    expect((await app.handle(asCustomer(customer, "/api/profile"))).status).toBe(401);
  }, 60_000);

  test("a second run finds nothing left to do", async () => {
    const { app, context } = await makeTestApp();
    await signIn(app, "idle@example.com");
    await advanceDays(app, 400);
    expect((await runRetention(context)).sessionsPurged).toBe(1);
    expect(await runRetention(context)).toEqual({
      logsDeleted: 0,
      logAddressesCut: 0,
      paymentAddressesCut: 0,
      sessionsPurged: 0,
    });
  });

  test("the periods are whole days from 1 to 3650", () => {
    const config = loadConfig({
      DATABASE_PATH: ":memory:",
      LOG_RETENTION_DAYS: "180",
      IP_RETENTION_DAYS: "7",
    });
    expect([config.logRetentionDays, config.ipRetentionDays]).toEqual([180, 7]);
    expect(() => loadConfig({ DATABASE_PATH: ":memory:", LOG_RETENTION_DAYS: "0" })).toThrow(
      /LOG_RETENTION_DAYS must be a whole number of days from 1 to 3650, got "0"/,
    );
    expect(() => loadConfig({ DATABASE_PATH: ":memory:", IP_RETENTION_DAYS: "2.5" })).toThrow(
      /IP_RETENTION_DAYS/,
    );
  });
});
