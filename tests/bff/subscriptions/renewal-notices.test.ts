import { afterAll, describe, expect, test } from "vitest";
import { startMailWorker } from "../../../bff/jobs/mail-worker";
import { apiOf, dataOf, identityOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { type SignedIn, signIn } from "../../helpers/customers";
import { advanceDays, cards, order, passDays, payWithCard, runBilling } from "../../helpers/payments";
import { freePort, headerOf, startSmtpServer, type TestSmtpServer } from "../../helpers/smtp-server";

// DESIGN §13(a), the 2026 subscription law: no renewal charge unless a notice stating the
// date, the amount, how to cancel and a link to cancel went out 24 hours to 7 days before;
// never more than it stated; a charge whose notice could not be sent moves, access kept.

const dayMs = 86_400_000;
const servers: TestSmtpServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
});

/** An app whose mail goes to a real SMTP server on loopback, which the test can stop. */
async function world(behaviour: Parameters<typeof startSmtpServer>[1] = {}) {
  const smtp = await startSmtpServer(await freePort(), behaviour);
  servers.push(smtp);
  const made = await makeTestApp({ SMTP_URL: smtp.url });
  return { ...made, smtp };
}
type World = Awaited<ReturnType<typeof world>>;

async function payingCustomer({ app }: World, email: string, trialDays: number) {
  const customer = await signIn(app, email, { period: trialDays });
  const options = await order(app, customer, 1, trialDays);
  expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);
  return { customer, userId: Number(options.accountId.replace("customer-", "")) };
}

type Charge = { id: number; amount: number; status: string; created_at: number; period_index: number };
const renewalsOf = ({ context }: World, userId: number) =>
  context.database.all<Charge>(
    "SELECT id, amount, status, created_at, period_index FROM payments WHERE user_id = ? AND kind = 'renewal' ORDER BY id",
    [userId],
  );

type Notice = {
  period_index: number;
  amount: number;
  charge_at: number;
  sent_at: number | null;
  status: string;
  data: string;
  message_id: string;
};
const noticesOf = ({ context }: World, userId: number) =>
  context.database.all<Notice>(
    `SELECT n.period_index, n.amount, n.charge_at, m.sent_at, m.status, m.data, m.message_id
       FROM renewal_notices n JOIN mail_outbox m ON m.id = n.mail_id JOIN subscriptions s ON s.id = n.subscription_id
       WHERE s.user_id = ? ORDER BY n.id`,
    [userId],
  );

const subscriptionOf = ({ context }: World, userId: number) =>
  context.database.get<{ status: string; end_date: number; next_charge_at: number | null }>(
    "SELECT status, end_date, next_charge_at FROM subscriptions WHERE user_id = ? ORDER BY id DESC LIMIT 1",
    [userId],
  );

const profileOf = ({ app }: World, customer: SignedIn) =>
  dataOf(apiOf(app).profile.post(identityOf(customer), sessionOf(customer)));

/** The latest mails the demo's outbox holds for an address. */
const mailsTo = ({ app }: World, to: string) => dataOf(apiOf(app).dev.mail.get({ query: { to } }));

/** A device slot bought in the cabinet; its raw answer, for its status. */
const addDevice = ({ app }: World, customer: SignedIn) =>
  apiOf(app).profile.addDevice.post(identityOf(customer), sessionOf(customer));

/** Each charge's notice (the latest of its period) went out 24 hours to 7 days before it. */
function expectEachChargeNoticed(charges: Charge[], notices: Notice[]) {
  for (const charge of charges) {
    const notice = notices.filter((item) => item.period_index === charge.period_index).at(-1);
    expect(notice?.sent_at, `charge ${charge.id}`).not.toBeNull();
    const since = charge.created_at - (notice?.sent_at ?? 0);
    expect(since).toBeGreaterThanOrEqual(dayMs);
    expect(since).toBeLessThanOrEqual(7 * dayMs);
    expect(charge.amount).toBeLessThanOrEqual(notice?.amount ?? 0);
  }
}

describe("the notice before every renewal charge", () => {
  test("over a test-clock year: twelve charges, each after its own notice, which states its date and amount and went out by SMTP", async () => {
    const w = await world();
    const { userId } = await payingCustomer(w, "notice-year@example.com", 7);
    await passDays(w.app, 365);
    const charges = await renewalsOf(w, userId);
    expect(charges.map((charge) => [charge.amount, charge.status])).toEqual(
      Array.from({ length: 12 }, () => [15_000, "completed"]),
    );
    const notices = await noticesOf(w, userId);
    expect(notices).toHaveLength(12);
    expectEachChargeNoticed(charges, notices);
    for (const notice of notices) {
      const data = JSON.parse(notice.data) as { chargeAt: number; charge: { amount: number } };
      expect(data.charge.amount).toBe(notice.amount);
      expect(data.chargeAt).toBe(notice.charge_at);
    }
    // The mail server got each notice once, with its kind and Message-ID.
    const received = w.smtp.received.filter((mail) => headerOf(mail, "X-Message-Kind") === "renewal_notice");
    expect(received).toHaveLength(12);
    expect(new Set(received.map((mail) => mail.parsed.messageId)).size).toBe(12);
    // The customer reads the date, the amount and a working cancel link (English, Moscow time).
    const notice = notices.at(-1) as Notice;
    const mails = await mailsTo(w, "notice-year@example.com");
    const lastNotice = mails.find(
      (mail) => mail.kind === "renewal_notice" && mail.messageId === notice.message_id,
    );
    const chargeDay = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Moscow",
      day: "numeric",
      month: "long",
      year: "numeric",
    }).format(notice.charge_at);
    expect(lastNotice?.text).toContain(chargeDay);
    expect(lastNotice?.text).toContain("150");
    expect(lastNotice?.text).toMatch(/\/cancel\?token=[\w.-]+/);
  }, 300_000);

  test("a notice the mail server cannot take moves the charge, with access kept; once it goes out, the charge comes 24 hours later", async () => {
    const w = await world();
    const { customer, userId } = await payingCustomer(w, "notice-outage@example.com", 10);
    await w.smtp.stop();
    await passDays(w.app, 14); // past the due date (day 10) with the mail server down
    expect(await renewalsOf(w, userId)).toEqual([]);
    // Waiting, and a fresh one for the moved date once the first grew old: none went out.
    expect(
      (await noticesOf(w, userId)).every((notice) => notice.sent_at === null && notice.status === "pending"),
    ).toBe(true);
    expect((await subscriptionOf(w, userId))?.status).toBe("ACTIVE");
    expect((await profileOf(w, customer)).userInfo).toMatchObject({
      subscriptionStatus: "ACTIVE",
      subscriptionIsActive: true,
    });

    await w.smtp.start();
    await passDays(w.app, 0.5); // the notice goes out now ...
    // The charge follows the latest notice (the one its period is charged against).
    const sentAt = (await noticesOf(w, userId)).at(-1)?.sent_at ?? 0;
    expect(sentAt).toBeGreaterThan(0);
    expect(await renewalsOf(w, userId)).toEqual([]); // ... and nothing is charged within 24 hours of it
    expect((await subscriptionOf(w, userId))?.next_charge_at).toBeGreaterThanOrEqual(sentAt + dayMs);
    await passDays(w.app, 1);
    const charges = await renewalsOf(w, userId);
    expect(charges.map((charge) => charge.status)).toEqual(["completed"]);
    expectEachChargeNoticed(charges, await noticesOf(w, userId));
  }, 300_000);

  test("never more than the latest notice stated, never free: a device slot bought after the notice gets a new notice, and the renewal charges it", async () => {
    const w = await world();
    const { customer, userId } = await payingCustomer(w, "notice-cap@example.com", 5);
    await passDays(w.app, 3); // the notice (150) goes out
    expect((await noticesOf(w, userId)).map((notice) => notice.amount)).toEqual([15_000]);
    // Its cancel link opens this account's cancel screen.
    const [mail] = await mailsTo(w, "notice-cap@example.com");
    const token = /\/cancel\?token=([\w.-]+)/.exec(mail?.text ?? "")?.[1] ?? "";
    const opened = await apiOf(w.app).subscriptions["cancel-link"].post({ token });
    expect(opened.status).toBe(200);
    expect(opened.data).toMatchObject({ email: "notice-cap@example.com", status: "ACTIVE" });
    const bought = await addDevice(w, customer);
    expect(bought.status).toBe(200);
    // A new notice states the renewal with the slot (DESIGN §13(a)).
    expect((await noticesOf(w, userId)).map((notice) => notice.amount)).toEqual([15_000, 20_000]);
    await passDays(w.app, 3);
    expect((await renewalsOf(w, userId)).map((charge) => charge.amount)).toEqual([20_000]);
    await passDays(w.app, 31);
    // The next period's notice states the slot too, and its charge includes it.
    expect((await noticesOf(w, userId)).map((notice) => notice.amount)).toEqual([15_000, 20_000, 20_000]);
    const charges = await renewalsOf(w, userId);
    expect(charges.map((charge) => charge.amount)).toEqual([20_000, 20_000]);
    expectEachChargeNoticed(charges, await noticesOf(w, userId));
  }, 300_000);

  test("five device slots bought two days before a 1,080 ₽ yearly renewal are paid for the next year: one new notice states 4,080 ₽, and the renewal charges it", async () => {
    const w = await world();
    const customer = await signIn(w.app, "five-slots@example.com", { period: 5, tariff: 12 });
    const options = await order(w.app, customer, 12, 5);
    expect((await payWithCard(w.app, options.invoiceId, cards.success)).success).toBe(true);
    const userId = Number(options.accountId.replace("customer-", ""));
    await passDays(w.app, 3); // the 1,080 ₽ notice went out; the renewal is two days away
    expect((await noticesOf(w, userId)).map((notice) => notice.amount)).toEqual([108_000]);
    for (let slot = 0; slot < 5; slot++) {
      const bought = await addDevice(w, customer);
      expect(bought.status).toBe(200);
      expect(bought.data?.charged).toBeLessThanOrEqual(4);
    }
    // Each slot adds 50 ₽ × 12 months to the year; the five make one notice that supersedes
    // the one sent, stating the new total, held a few minutes for the next slot.
    const notices = await noticesOf(w, userId);
    expect(notices.map((notice) => [notice.amount, notice.status])).toEqual([
      [108_000, "sent"],
      [408_000, "pending"],
    ]);
    expect(JSON.parse(notices[1]?.data ?? "{}")).toMatchObject({
      charge: { amount: 408_000 },
      chargeAt: notices[1]?.charge_at,
    });
    expect((await profileOf(w, customer)).userInfo.amount).toBe(4_080);
    await passDays(w.app, 2.5);
    const charges = await renewalsOf(w, userId);
    expect(charges.map((charge) => [charge.amount, charge.status])).toEqual([[408_000, "completed"]]);
    // No charge above what a notice sent 24 hours to 7 days before it stated.
    expectEachChargeNoticed(charges, await noticesOf(w, userId));
  }, 300_000);

  test("a slot bought hours before the renewal moves the charge to 24 hours after its new notice, with access kept", async () => {
    const w = await world();
    const customer = await signIn(w.app, "late-slot@example.com", { period: 5, tariff: 12 });
    const options = await order(w.app, customer, 12, 5);
    expect((await payWithCard(w.app, options.invoiceId, cards.success)).success).toBe(true);
    const userId = Number(options.accountId.replace("customer-", ""));
    await passDays(w.app, 4.5); // twelve hours before the renewal
    expect((await addDevice(w, customer)).status).toBe(200);
    // The mail worker sends the new notice once its few minutes' hold for further slots is over.
    await advanceDays(w.app, 11 / (24 * 60));
    await runBilling(w.app);
    await passDays(w.app, 0.75); // past the old due date: the new notice is not 24 hours old yet
    expect(await renewalsOf(w, userId)).toEqual([]);
    expect((await subscriptionOf(w, userId))?.status).toBe("ACTIVE");
    expect((await profileOf(w, customer)).userInfo).toMatchObject({
      subscriptionStatus: "ACTIVE",
      subscriptionIsActive: true,
    });
    await passDays(w.app, 0.5);
    const charges = await renewalsOf(w, userId);
    expect(charges.map((charge) => [charge.amount, charge.status])).toEqual([[168_000, "completed"]]);
    const notices = await noticesOf(w, userId);
    expect(notices.map((notice) => notice.amount)).toEqual([108_000, 168_000]);
    expectEachChargeNoticed(charges, notices);
  }, 300_000);

  test("a slot whose new notice is missing (its purchase settled elsewhere) is announced when its renewal falls due, which then waits 24 hours: never charged less", async () => {
    const w = await world();
    const { customer, userId } = await payingCustomer(w, "unannounced-slot@example.com", 5);
    await passDays(w.app, 3);
    expect((await addDevice(w, customer)).status).toBe(200);
    // As if the purchase had been settled by the gateway's notification, without its notice.
    await w.context.database.run(
      `DELETE FROM renewal_notices WHERE id = (SELECT MAX(n.id) FROM renewal_notices n
         JOIN subscriptions s ON s.id = n.subscription_id WHERE s.user_id = ?)`,
      [userId],
    );
    expect((await noticesOf(w, userId)).map((notice) => notice.amount)).toEqual([15_000]);
    await passDays(w.app, 2.5); // past the due date: the charge waits for a notice stating the slot
    expect(await renewalsOf(w, userId)).toEqual([]);
    expect((await noticesOf(w, userId)).map((notice) => notice.amount)).toEqual([15_000, 20_000]);
    expect((await subscriptionOf(w, userId))?.status).toBe("ACTIVE");
    await passDays(w.app, 1.5);
    const charges = await renewalsOf(w, userId);
    expect(charges.map((charge) => [charge.amount, charge.status])).toEqual([[20_000, "completed"]]);
    expectEachChargeNoticed(charges, await noticesOf(w, userId));
  }, 60_000);

  test("an address that refuses every mail is never charged; the subscription ends a week after its period", async () => {
    const w = await world({ refuseRecipient: (address) => (address.startsWith("bounce") ? 550 : undefined) });
    const { userId } = await payingCustomer(w, "bounce@example.com", 3);
    const end = (await subscriptionOf(w, userId))?.end_date ?? 0;
    await passDays(w.app, 9);
    expect((await subscriptionOf(w, userId))?.status).toBe("ACTIVE"); // access kept while the charge waits
    await passDays(w.app, 3);
    expect(await renewalsOf(w, userId)).toEqual([]);
    expect((await noticesOf(w, userId)).every((notice) => notice.status === "failed")).toBe(true);
    const ended = await subscriptionOf(w, userId);
    expect(ended?.status).toBe("EXPIRED");
    expect(ended?.end_date).toBe(end);
  }, 300_000);

  test("slots bought one after another while the mail worker runs make one new notice per charge, sent once the last is in", async () => {
    const w = await world();
    const customer = await signIn(w.app, "slots-in-a-row@example.com", { period: 5 });
    const options = await order(w.app, customer, 1, 5);
    expect((await payWithCard(w.app, options.invoiceId, cards.success)).success).toBe(true);
    const userId = Number(options.accountId.replace("customer-", ""));
    await passDays(w.app, 3); // the 150 ₽ notice went out; the renewal is two days away
    const worker = startMailWorker(w.context, 20);
    try {
      for (let slot = 0; slot < 3; slot++) {
        expect((await addDevice(w, customer)).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 100)); // the worker passes meanwhile
      }
      expect((await noticesOf(w, userId)).map((notice) => [notice.amount, notice.status])).toEqual([
        [15_000, "sent"],
        [30_000, "pending"],
      ]);
      await advanceDays(w.app, 11 / (24 * 60)); // the hold is over: the worker sends it
      for (let wait = 0; wait < 200 && !(await noticesOf(w, userId))[1]?.sent_at; wait++)
        await new Promise((resolve) => setTimeout(resolve, 25));
    } finally {
      await worker.stop();
    }
    const notices = await noticesOf(w, userId);
    expect(notices.map((notice) => [notice.amount, notice.status])).toEqual([
      [15_000, "sent"],
      [30_000, "sent"],
    ]);
    // Exactly two notices reached the customer's mailbox, the second stating the new total.
    const received = w.smtp.received.filter((mail) => headerOf(mail, "X-Message-Kind") === "renewal_notice");
    expect(received).toHaveLength(2);
    await passDays(w.app, 3);
    const charges = await renewalsOf(w, userId);
    expect(charges.map((charge) => [charge.amount, charge.status])).toEqual([[30_000, "completed"]]);
    expectEachChargeNoticed(charges, notices);
  }, 300_000);

  test("the mail worker sends the notice of a charge due within days at once: a one-day trial is charged on the first pass after it", async () => {
    const w = await world();
    const { userId } = await payingCustomer(w, "notice-soon@example.com", 1);
    const worker = startMailWorker(w.context, 50);
    try {
      for (let wait = 0; wait < 200 && !(await noticesOf(w, userId))[0]?.sent_at; wait++)
        await new Promise((resolve) => setTimeout(resolve, 25));
    } finally {
      await worker.stop();
    }
    expect(await noticesOf(w, userId)).toMatchObject([{ status: "sent", amount: 15_000 }]);
    await advanceDays(w.app, 1.01);
    await runBilling(w.app); // one pass, past the due date: the notice is a day old
    const charges = await renewalsOf(w, userId);
    expect(charges.map((charge) => charge.status)).toEqual(["completed"]);
    expectEachChargeNoticed(charges, await noticesOf(w, userId));
  }, 300_000);
});
