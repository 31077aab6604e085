import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { createContext } from "../../../bff/app";
import type { AppContext } from "../../../bff/context";
import {
  deliverDueMail,
  maxRetryDelayMs,
  retryDelayMs,
  startMailWorker,
} from "../../../bff/jobs/mail-worker";
import { renderMail } from "../../../bff/modules/mail/render";
import type { MailTransport, OutgoingMail } from "../../../bff/modules/mail/transport";
import type { OffsetClock } from "../../../bff/platform/clock";
import { loadConfig } from "../../../bff/platform/config";
import { openDatabase } from "../../../bff/platform/database";
import { type MailRow, mailDelivery } from "../../../db/queries/mail-outbox";
import { makeTestApp } from "../../helpers/app";
import { mailRow, makeMailCustomer, queueMail, queueMails } from "../../helpers/mail";
import {
  freePort,
  headerOf,
  type ReceivedMail,
  smtpPassword,
  smtpUser,
  startSmtpServer,
  type TestSmtpServer,
} from "../../helpers/smtp-server";
import { makeTestClock, shareTestClock } from "../../helpers/test-clock";
import { testDatabaseUrl } from "../../helpers/test-database";

// DESIGN §14: a message is written with its event and sent by a worker over SMTP, once
// (stable Message-ID), with retries at most 60 s apart while the server is down; a
// recipient refused for good is not tried again. These tests talk to a real SMTP server
// (the smtp-server package) on a loopback port and read what it received.

const day = 24 * 60 * 60 * 1000;
const mailFrom = "Kannt <no-reply@kannt.example>";
const smtpUrlOn = (port: number) => `smtp://${smtpUser}:${smtpPassword}@127.0.0.1:${port}`;
const nothing = { sent: 0, failed: 0, retried: 0 };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function smtpServer(...parameters: Parameters<typeof startSmtpServer>): Promise<TestSmtpServer> {
  const server = await startSmtpServer(...parameters);
  cleanups.push(() => server.stop());
  return server;
}

/** The app on an in-memory database, sending through the SMTP server on `port`. */
async function appSendingTo(port: number) {
  const made = await makeTestApp({
    SMTP_URL: smtpUrlOn(port),
    MAIL_FROM: mailFrom,
    PUBLIC_URL: "https://kannt.example",
  });
  cleanups.push(() => made.context.mail.close());
  return made;
}

/** Moves the billing clock to the moment the message is due again. */
function untilDue(context: AppContext, clock: OffsetClock, row: { next_attempt_at: number }) {
  clock.advance(Math.max(0, row.next_attempt_at - context.clock.now()));
}

const normalised = (text: string | undefined) => (text ?? "").replace(/\r\n/g, "\n").trim();
const messageIds = (received: ReceivedMail[]) => received.map((mail) => mail.parsed.messageId);
const addresses = (mail: ReceivedMail) =>
  (mail.parsed.to ?? []).map((address) => ("address" in address ? address.address : ""));

describe("delivery over SMTP", () => {
  test("a queued message is delivered once: Message-ID, X-Message-Kind, From, To, text and HTML parts; sent_at on the billing clock", async () => {
    const smtp = await smtpServer(await freePort());
    const { context, clock } = await appSendingTo(smtp.port);
    const userId = await makeMailCustomer(context, "Anna.Reader@example.com", "ru");
    const queued = await queueMail(context, userId, "delivered-once");
    // The billing clock runs ten days ahead of real time: sent_at must be in that clock,
    // the one a renewal compares with its notice's.
    clock.advance(10 * day);
    const before = clock.now();

    expect(await deliverDueMail(context)).toEqual({ sent: 1, failed: 0, retried: 0 });

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received as [ReceivedMail];
    expect(mail.username).toBe(smtpUser);
    expect(mail.envelopeTo).toEqual(["Anna.Reader@example.com"]);
    expect(mail.parsed.messageId).toBe(`<${queued.message_id}>`);
    expect(headerOf(mail, "X-Message-Kind")).toBe("subscription_canceled");
    expect(mail.parsed.from).toMatchObject({ name: "Kannt", address: "no-reply@kannt.example" });
    expect(addresses(mail)).toEqual(["Anna.Reader@example.com"]);
    expect(headerOf(mail, "Content-Type")).toMatch(/^multipart\/alternative/);
    // What the renderer makes of the row's facts, in the customer's language, is what arrived.
    const expected = await renderMail("subscription_canceled", "ru", JSON.parse(queued.data), {
      cabinetUrl: "https://kannt.example/profile",
    });
    expect(mail.parsed.subject).toBe(expected.subject);
    expect(normalised(mail.parsed.text)).toBe(normalised(expected.text));
    expect(normalised(mail.parsed.html)).toBe(normalised(expected.html));

    const row = await mailRow(context, queued);
    expect(row).toMatchObject({ status: "sent", attempts: 1, last_error: null, claimed_until: null });
    expect(row.sent_at).toBeGreaterThanOrEqual(before);
    expect(row.sent_at).toBeLessThanOrEqual(clock.now());
    expect(row.sent_at).toBeGreaterThan(Date.now() + 9 * day);

    expect(await deliverDueMail(context)).toEqual(nothing);
    expect(smtp.received).toHaveLength(1);
  });

  test("server not listening: the message stays pending with its attempts and a retry at most 60 s ahead; once the server is back it goes once", async () => {
    const port = await freePort();
    const { context, clock } = await appSendingTo(port);
    const queued = await queueMail(
      context,
      await makeMailCustomer(context, "down@example.com"),
      "server-down",
    );

    expect(await deliverDueMail(context)).toEqual({ sent: 0, failed: 0, retried: 1 });
    let row = await mailRow(context, queued);
    expect(row).toMatchObject({ status: "pending", attempts: 1, sent_at: null, claimed_until: null });
    expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(row.next_attempt_at).toBeGreaterThan(clock.now());
    expect(row.next_attempt_at - clock.now()).toBeLessThanOrEqual(maxRetryDelayMs);
    // Not due yet: a pass leaves it alone.
    expect(await deliverDueMail(context)).toEqual(nothing);
    expect((await mailRow(context, queued)).attempts).toBe(1);

    // Down for long: the wait grows, and never passes 60 s.
    const waits: number[] = [];
    for (let pass = 0; pass < 8; pass++) {
      untilDue(context, clock, row);
      expect(await deliverDueMail(context)).toEqual({ sent: 0, failed: 0, retried: 1 });
      row = await mailRow(context, queued);
      waits.push(row.next_attempt_at - clock.now());
    }
    expect(row.attempts).toBe(9);
    for (const wait of waits) {
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(maxRetryDelayMs);
    }
    expect(waits.at(-1)).toBeGreaterThan(maxRetryDelayMs - 1000);

    const smtp = await smtpServer(port);
    untilDue(context, clock, row);
    expect(await deliverDueMail(context)).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(messageIds(smtp.received)).toEqual([`<${queued.message_id}>`]);
    expect(await mailRow(context, queued)).toMatchObject({ status: "sent", attempts: 10, last_error: null });
    clock.advance(day);
    expect(await deliverDueMail(context)).toEqual(nothing);
    expect(smtp.received).toHaveLength(1);
  });

  test("server answering 421: the messages tried wait their backoff, the others wait as long untried; all go once when it accepts again", async () => {
    const smtp = await smtpServer(await freePort(), { refuseConnections: 421 });
    const { context, clock } = await appSendingTo(smtp.port);
    const userId = await makeMailCustomer(context, "busy@example.com");
    const queued = await queueMails(
      context,
      userId,
      Array.from({ length: 6 }, (_, index) => `busy-${index}`),
    );

    const counts = await deliverDueMail(context);
    expect(counts.sent + counts.failed).toBe(0);
    const rows: MailRow[] = [];
    for (const row of queued) rows.push(await mailRow(context, row));
    const tried = rows.filter((row) => row.attempts === 1);
    const untried = rows.filter((row) => row.attempts === 0);
    // One connection per message in flight (three lanes); the rest were not knocked on.
    expect(tried).toHaveLength(counts.retried);
    expect(untried.length).toBeGreaterThan(0);
    expect(tried.length + untried.length).toBe(6);
    for (const row of rows) {
      expect(row.status).toBe("pending");
      expect(row.last_error).toMatch(/421/);
      expect(row.next_attempt_at).toBeGreaterThan(clock.now());
      expect(row.next_attempt_at - clock.now()).toBeLessThanOrEqual(maxRetryDelayMs);
    }
    expect(smtp.received).toHaveLength(0);

    smtp.setBehaviour({});
    clock.advance(maxRetryDelayMs);
    expect(await deliverDueMail(context)).toEqual({ sent: 6, failed: 0, retried: 0 });
    expect(new Set(messageIds(smtp.received))).toEqual(new Set(queued.map((row) => `<${row.message_id}>`)));
    expect(smtp.received).toHaveLength(6);
  });

  test("a recipient refused for good (550) is marked failed and never tried again; a deferred one (452) is retried; the others go", async () => {
    const smtp = await smtpServer(await freePort(), {
      refuseRecipient: (address) =>
        address.startsWith("gone") ? 550 : address.startsWith("full") ? 452 : undefined,
    });
    const { context, clock } = await appSendingTo(smtp.port);
    const gone = await queueMail(context, await makeMailCustomer(context, "gone@example.com"), "refused");
    const full = await queueMail(context, await makeMailCustomer(context, "full@example.com"), "deferred");
    const fine = await queueMail(context, await makeMailCustomer(context, "fine@example.com"), "accepted");

    expect(await deliverDueMail(context)).toEqual({ sent: 1, failed: 1, retried: 1 });
    expect(await mailRow(context, gone)).toMatchObject({ status: "failed", attempts: 1, sent_at: null });
    expect((await mailRow(context, gone)).last_error).toMatch(/550/);
    expect(await mailRow(context, full)).toMatchObject({ status: "pending", attempts: 1 });
    expect((await mailRow(context, full)).last_error).toMatch(/452/);
    expect((await mailRow(context, fine)).status).toBe("sent");

    clock.advance(day);
    expect(await deliverDueMail(context)).toEqual({ sent: 0, failed: 0, retried: 1 });
    expect(await mailRow(context, gone)).toMatchObject({ status: "failed", attempts: 1 });
    expect(smtp.received.map((mail) => mail.envelopeTo)).toEqual([["fine@example.com"]]);
  });

  test("two workers delivering at once send every message exactly once", async () => {
    // Each message is held 30 ms by the server, so the workers' sends overlap.
    const smtp = await smtpServer(await freePort(), { dataDelayMs: 30 });
    const { context } = await appSendingTo(smtp.port);
    // A second worker on the same database with its own SMTP connections, as a second process would be.
    const other = await createContext(context.config, context.database, context.clock);
    cleanups.push(() => other.mail.close());
    const userId = await makeMailCustomer(context, "many@example.com");
    const queued = await queueMails(
      context,
      userId,
      Array.from({ length: 15 }, (_, index) => `many-${index}`),
    );

    const passes = await Promise.all([
      deliverDueMail(context),
      deliverDueMail(other),
      deliverDueMail(context),
      deliverDueMail(other),
    ]);
    expect(passes.reduce((total, pass) => total + pass.sent, 0)).toBe(15);
    expect(passes.filter((pass) => pass.sent > 0).length).toBeGreaterThan(1);
    expect(passes.every((pass) => pass.failed === 0 && pass.retried === 0)).toBe(true);
    expect(smtp.received).toHaveLength(15);
    expect([...messageIds(smtp.received)].sort()).toEqual(queued.map((row) => `<${row.message_id}>`).sort());
  });

  test("a failure of any kind in the transport never throws out of a pass", async () => {
    const throwing: MailTransport = {
      kind: "smtp",
      concurrency: 1,
      send: async () => {
        throw new TypeError("something unexpected");
      },
      close: () => {},
    };
    const { context } = await makeTestApp({}, { mail: throwing });
    const queued = await queueMail(context, await makeMailCustomer(context, "odd@example.com"), "odd");
    expect(await deliverDueMail(context)).toEqual({ sent: 0, failed: 0, retried: 1 });
    expect(await mailRow(context, queued)).toMatchObject({ status: "pending", attempts: 1 });
    expect((await mailRow(context, queued)).last_error).toMatch(/something unexpected/);
  });
});

describe("restarts", () => {
  const directory = mkdtempSync(join(tmpdir(), "kannt-mail-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  /**
   * Where the restarted processes keep their data: a SQLite file, or on a PostgreSQL run
   * one database of the cluster, which a process's restart reconnects to.
   */
  async function databaseNamed(name: string) {
    return { path: join(directory, name), url: await testDatabaseUrl() };
  }

  /** A process's context on the database: its own clock, connections and worker. */
  async function processOn(location: { path: string; url: string | undefined }, port: number) {
    const config = loadConfig({
      DATABASE_PATH: location.path,
      ...(location.url ? { DATABASE_URL: location.url } : {}),
      JWT_SECRET: "test-jwt-secret-that-is-long-enough-000000",
      CLOUDPAYMENTS_API_SECRET: "test-cloudpayments-secret-long-enough-0000",
      YOOKASSA_SHOP_ID: "512345",
      YOOKASSA_SECRET_KEY: "test_yookassa-secret-key-long-enough-00000",
      SMTP_URL: smtpUrlOn(port),
      MAIL_FROM: mailFrom,
      // A gateway URL instead of the sandbox bank, whose ledger file a process would also
      // hold; mail needs no bank, and nothing here calls it.
      APP_MODE: "demo",
      CLOUDPAYMENTS_API_URL: "https://127.0.0.1:9/",
      YOOKASSA_API_URL: "https://127.0.0.1:9/",
    });
    const database = await openDatabase(config);
    // As a restarted server does, the clock goes on from the offset kept in the database.
    const clock = makeTestClock();
    await shareTestClock(database, clock);
    const context = await createContext(config, database, clock);
    let isStopped = false;
    const stop = async () => {
      if (isStopped) return;
      isStopped = true;
      context.mail.close();
      // A SQLite file is held exclusively, as by a process; a process's end lets it go.
      await context.database.close();
    };
    cleanups.push(stop);
    return { context, stop };
  }

  test("after a restart nothing sent is sent again, and a dead worker's claim holds until it runs out", async () => {
    const smtp = await smtpServer(await freePort());
    const database = await databaseNamed("restart.db");
    const first = await processOn(database, smtp.port);
    const userId = await makeMailCustomer(first.context, "restart@example.com");
    const delivered = await queueMail(first.context, userId, "before-restart");
    expect(await deliverDueMail(first.context)).toEqual({ sent: 1, failed: 0, retried: 0 });
    // A worker claims the next message and the process dies before it says a word to the server.
    const claimed = await queueMail(first.context, userId, "claimed-then-died");
    const realNow = Date.now();
    expect(
      (
        await mailDelivery.claimNext(
          first.context.database,
          first.context.clock.now(),
          realNow,
          realNow + 120_000,
        )
      )?.id,
    ).toBe(claimed.id);
    await first.stop();

    const second = await processOn(database, smtp.port);
    expect(await deliverDueMail(second.context)).toEqual(nothing);
    expect(smtp.received).toHaveLength(1);
    // Two minutes later (real time) the dead claim has run out: the row is due again.
    await second.context.database.run("UPDATE mail_outbox SET claimed_until = ? WHERE id = ?", [
      Date.now() - 1,
      claimed.id,
    ]);
    expect(await deliverDueMail(second.context)).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(messageIds(smtp.received)).toEqual([`<${delivered.message_id}>`, `<${claimed.message_id}>`]);
    expect(await deliverDueMail(second.context)).toEqual(nothing);
  });

  test("the accepted risk: accepted by the server but not recorded before the process died goes again, with the same Message-ID", async () => {
    // The one window no outbox can close: the server said 250 and the process died before
    // the row was marked sent. After the claim runs out another worker sends it again, and
    // because the Message-ID was fixed when the event queued it (not made per attempt),
    // the copy is byte-for-byte the same message: receiving systems that keep the
    // Message-IDs they have seen (Gmail, Cyrus's duplicate delivery suppression, Sieve's
    // "duplicate" test) drop it, and for any other the reader sees one message twice,
    // never two different notices.
    const smtp = await smtpServer(await freePort());
    const database = await databaseNamed("unrecorded.db");
    const first = await processOn(database, smtp.port);
    const queued = await queueMail(
      first.context,
      await makeMailCustomer(first.context, "twice@example.com"),
      "unrecorded",
    );
    expect(await deliverDueMail(first.context)).toEqual({ sent: 1, failed: 0, retried: 0 });
    // As if the UPDATE after the server's 250 never happened, and the claim has since run out.
    await first.context.database.run(
      "UPDATE mail_outbox SET status = 'pending', sent_at = NULL, attempts = 0, claimed_until = ? WHERE id = ?",
      [Date.now() - 1, queued.id],
    );
    await first.stop();

    const second = await processOn(database, smtp.port);
    expect(await deliverDueMail(second.context)).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(smtp.received).toHaveLength(2);
    const [once, again] = smtp.received as [ReceivedMail, ReceivedMail];
    expect(again.parsed.messageId).toBe(once.parsed.messageId);
    expect(again.parsed.messageId).toBe(`<${queued.message_id}>`);
    expect(again.parsed.subject).toBe(once.parsed.subject);
    expect(again.parsed.text).toBe(once.parsed.text);
  });
});

describe("the worker", () => {
  test("backoff: 1 s, 2 s, 4 s … doubling after each failure, capped at 60 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map(retryDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000,
    ]);
  });

  test("polls by itself, and stop lets the message in flight finish and be recorded, starting no other", async () => {
    const sent: OutgoingMail[] = [];
    let release: () => void = () => {};
    let started: () => void = () => {};
    const isSending = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow: MailTransport = {
      kind: "smtp",
      concurrency: 1,
      async send(mail) {
        started();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        sent.push(mail);
      },
      close: () => {},
    };
    const { context } = await makeTestApp({}, { mail: slow });
    const userId = await makeMailCustomer(context, "stop@example.com");
    const queued = await queueMails(context, userId, ["stop-1", "stop-2", "stop-3"]);

    const worker = startMailWorker(context, 20);
    await isSending;
    const stopping = worker.stop();
    let isStopped = false;
    void stopping.then(() => {
      isStopped = true;
    });
    await Bun.sleep(30);
    expect(isStopped).toBe(false);
    release();
    await stopping;

    expect(sent.map((mail) => mail.messageId)).toEqual([queued[0]?.message_id]);
    const statuses: string[] = [];
    for (const row of queued) statuses.push((await mailRow(context, row)).status);
    expect(statuses).toEqual(["sent", "pending", "pending"]);
    await Bun.sleep(60);
    expect(sent).toHaveLength(1);
  });
});
