import { describe, expect, test, vi } from "vitest";
import { runRetention } from "../../../bff/jobs/retention";
import { loadConfig } from "../../../bff/platform/config";
import { audit } from "../../../db/queries/operators";
import { apiOf, dataOf, identityOf, sessionOf, staffOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { fixture, signIn } from "../../helpers/customers";
import { allowList, entryWithId, nodeHeaders, sendEvents } from "../../helpers/nodes";
import { makeOperator, tokensFor } from "../../helpers/operators";
import { advanceDays, cards, order, payWithCard } from "../../helpers/payments";

type TestContext = Awaited<ReturnType<typeof makeTestApp>>["context"];

/** `count` connection logs of `userId`, one a second back from `newest`, each from its own address. */
async function addConnectionLogs(context: TestContext, userId: number, newest: number, count: number) {
  await context.database.run(
    `WITH RECURSIVE numbers (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM numbers WHERE n < ?)
     INSERT INTO connection_logs (user_id, connected_at, user_ip, success)
     SELECT ?, CAST(? AS BIGINT) - n * 1000, '198.51.' || CAST(n / 250 AS TEXT) || '.' || CAST(n % 250 AS TEXT), 1
     FROM numbers`,
    [count, userId, newest],
  );
}

async function userIdOf(context: TestContext, email: string): Promise<number> {
  const row = await context.database.get<{ id: number }>("SELECT id FROM users WHERE email = ?", [email]);
  return Number(row?.id);
}

const days = (count: number) => count * 24 * 60 * 60 * 1000;

/** DESIGN §16: a privacy product keeps little, and for a bounded time. */
describe("privacy retention over a test-clock year", () => {
  test("connection logs go after 90 days, addresses are cut to their network after 30, expired sessions go", async () => {
    const { app, context } = await makeTestApp();
    const node = await nodeHeaders(context, "de-fra-1");
    const customer = await signIn(app, "retention@example.com");
    const options = await order(app, customer, 12, 30);
    expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);
    const api = apiOf(app);
    const { accessKey } = await dataOf(
      api.devices.activate.post(
        { ...identityOf(customer), deviceId: "laptop", deviceName: "ThinkPad", platform: "windows" },
        sessionOf(customer),
      ),
    );
    const userId = Number(options.accountId.replace("customer-", ""));
    const admin = await makeOperator(context, "retention.admin", "admin");

    const tag = entryWithId(await allowList(app, node), accessKey)?.tag ?? "";
    const connect = async (userIp: string) => {
      const logged = await sendEvents(app, node, {
        connections: [{ tag, clientIp: userIp, at: Date.now(), success: true }],
      });
      expect(await logged.json()).toEqual({ success: true, ignored: 0 });
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
    const logs = await dataOf(api.panel.logs.post({}, { ...staffOf(accessToken), query: { userId } }));
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
    expect((await api.profile.post(identityOf(customer), sessionOf(customer))).status).toBe(401);
  }, 300_000);

  test("a device's daily traffic goes with the connection logs, after LOG_RETENTION_DAYS", async () => {
    const { app, context } = await makeTestApp();
    const { userId } = await fixture(app, {
      email: "traffic-kept@example.com",
      status: "ACTIVE",
      devices: 1,
    });
    const node = await nodeHeaders(context, "fi-hel-1");
    const [entry] = (await allowList(app, node)).entries;
    expect(entry).toBeDefined();
    const sent = await sendEvents(app, node, {
      traffic: [{ tag: entry?.tag ?? "", upload: 10, download: 20 }],
    });
    expect(await sent.json()).toEqual({ success: true, ignored: 0 });
    const kept = async () =>
      Number(
        (
          await context.database.get<{ count: number }>(
            "SELECT COUNT(*) AS count FROM device_traffic WHERE device_id IN (SELECT id FROM devices WHERE user_id = ?)",
            [userId],
          )
        )?.count,
      );
    await advanceDays(app, 89);
    expect((await runRetention(context)).trafficDeleted).toBe(0);
    expect(await kept()).toBe(1);
    await advanceDays(app, 2);
    expect((await runRetention(context)).trafficDeleted).toBe(1);
    expect(await kept()).toBe(0);
  });

  test("a second run finds nothing left to do", async () => {
    const { app, context } = await makeTestApp();
    await signIn(app, "idle@example.com");
    await advanceDays(app, 400);
    expect((await runRetention(context)).sessionsPurged).toBe(1);
    expect(await runRetention(context)).toEqual({
      logsDeleted: 0,
      trafficDeleted: 0,
      logAddressesCut: 0,
      paymentAddressesCut: 0,
      auditAddressesCut: 0,
      sessionsPurged: 0,
    });
  });

  test("one pass handles more rows than a batch holds", async () => {
    const { app, context } = await makeTestApp();
    await signIn(app, "busy@example.com");
    const userId = await userIdOf(context, "busy@example.com");
    const now = context.clock.now();
    await addConnectionLogs(context, userId, now - days(100), 1200);
    await addConnectionLogs(context, userId, now - days(40), 1200);
    expect(await runRetention(context)).toMatchObject({ logsDeleted: 1200, logAddressesCut: 1200 });
    const left = await context.database.all<{ user_ip: string }>(
      "SELECT user_ip FROM connection_logs WHERE user_id = ?",
      [userId],
    );
    expect(left).toHaveLength(1200);
    expect(left.every((log) => /^198\.51\.\d+\.0\/24$/.test(log.user_ip))).toBe(true);
  }, 300_000);

  test("a backlog larger than a pass's share is worked off over the following passes", async () => {
    const { app, context } = await makeTestApp();
    await signIn(app, "backlog@example.com");
    const userId = await userIdOf(context, "backlog@example.com");
    const now = context.clock.now();
    await addConnectionLogs(context, userId, now - days(100), 250);
    await addConnectionLogs(context, userId, now - days(40), 250);
    // Three batches of 40 per kind of row and pass: 120, 120, then the last 10.
    const limits = { batchSize: 40, batchesPerPass: 3 };
    const passes = [];
    for (let pass = 0; pass < 4; pass++) {
      const { logsDeleted, logAddressesCut } = await runRetention(context, limits);
      passes.push([logsDeleted, logAddressesCut]);
    }
    expect(passes).toEqual([
      [120, 120],
      [120, 120],
      [10, 10],
      [0, 0],
    ]);
    const whole = await context.database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM connection_logs WHERE user_id = ? AND user_ip NOT LIKE '%/%'",
      [userId],
    );
    expect(Number(whole?.count)).toBe(0);
  }, 300_000);

  test("a customer's own audit entry keeps its address only for the retention period; an operator's keeps it", async () => {
    const { app, context } = await makeTestApp();
    await signIn(app, "leaving@example.com");
    const userId = await userIdOf(context, "leaving@example.com");
    await makeOperator(context, "retention.support", "support");
    const operator = await context.database.get<{ id: number }>(
      "SELECT id FROM operators WHERE username = ?",
      ["retention.support"],
    );
    const now = context.clock.now();
    for (const [operatorId, action, ipAddress] of [
      [null, "customer.delete", "203.0.113.7"],
      [null, "customer.delete", "2001:db8:1:2:3:4:5:6"],
      [Number(operator?.id), "user.block", "198.51.100.23"],
    ] as const)
      await audit.record(context.database, { operatorId, action, targetUserId: userId, ipAddress }, now);
    const addresses = async () =>
      (
        await context.database.all<{ ip_address: string }>(
          "SELECT ip_address FROM audit_log WHERE target_user_id = ? ORDER BY id",
          [userId],
        )
      ).map((entry) => entry.ip_address);

    await advanceDays(app, 29);
    expect((await runRetention(context)).auditAddressesCut).toBe(0);
    expect(await addresses()).toEqual(["203.0.113.7", "2001:db8:1:2:3:4:5:6", "198.51.100.23"]);

    await advanceDays(app, 2);
    expect((await runRetention(context)).auditAddressesCut).toBe(2);
    expect(await addresses()).toEqual(["203.0.113.0/24", "2001:db8:1::/48", "198.51.100.23"]);
  });

  test("the scheduler's pass runs retention even when its renewal pass fails", async () => {
    const { app, context } = await makeTestApp();
    await signIn(app, "expired@example.com");
    await advanceDays(app, 400);
    const countSessions = async () =>
      Number(
        (await context.database.get<{ count: number }>("SELECT COUNT(*) AS count FROM sessions"))?.count,
      );
    expect(await countSessions()).toBe(1);
    // The real renewal pass, made to fail once. The server's test files share their modules
    // (vitest.config.ts), so the scheduler, its pass and the logger are loaded afresh here,
    // the pass replaced, and forgotten after: no other file meets the replacement.
    const renewalsPath = "../../../bff/jobs/renewals";
    vi.resetModules();
    vi.doMock(renewalsPath, async (importOriginal) => {
      const original = await importOriginal<typeof import("../../../bff/jobs/renewals")>();
      return { ...original, runRenewals: vi.fn(original.runRenewals) };
    });
    const { runRenewals } = await import("../../../bff/jobs/renewals");
    const { startRenewalScheduler } = await import("../../../bff/jobs/scheduler");
    const { logger } = await import("../../../bff/platform/logger");
    vi.mocked(runRenewals).mockRejectedValueOnce(new Error("renewal pass broke"));
    const errors = vi.spyOn(logger, "error");
    try {
      // One pass at once, none after it within the test.
      const stop = startRenewalScheduler(context, 3_600_000);
      await stop();
      expect(vi.mocked(runRenewals)).toHaveBeenCalledTimes(1);
      expect(errors.mock.calls.map(([message]) => message)).toEqual(["renewal pass failed"]);
    } finally {
      errors.mockRestore();
      vi.doUnmock(renewalsPath);
      vi.resetModules();
    }
    // Retention ran all the same: the session that ran out is gone.
    expect(await countSessions()).toBe(0);
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
