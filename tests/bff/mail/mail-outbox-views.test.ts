import { describe, expect, test } from "vitest";
import { deliverDueMail, retryDelayMs } from "../../../bff/jobs/mail-worker";
import { enqueueMail } from "../../../bff/modules/mail/outbox";
import { renderMail } from "../../../bff/modules/mail/render";
import type { MailTransport } from "../../../bff/modules/mail/transport";
import { MailDeliveryError } from "../../../bff/modules/mail/transport";
import { apiOf, dataOf, staffOf } from "../../helpers/api";
import { makeTestApp, request } from "../../helpers/app";
import { mailRow, makeMailCustomer, queueMail, queueMails } from "../../helpers/mail";
import { makeOperator, tokensFor } from "../../helpers/operators";

// DESIGN §11/§14: the demo's outbox at GET /api/dev/mail (newest first, by recipient in
// any letter case, the latest 100 without one; 404 in production), and the operator's
// list of the messages sent to a customer with their delivery state.

const isoDate = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("GET /api/dev/mail", () => {
  test("answers the documented shape, newest first, filtered by recipient in any letter case, with delivery state", async () => {
    const { app, context, clock } = await makeTestApp({ PUBLIC_URL: "https://kannt.example" });
    const anna = await makeMailCustomer(context, "Anna@Example.com", "kk");
    const boris = await makeMailCustomer(context, "boris@example.com", "zh");
    const first = await queueMail(context, anna, "first");
    clock.advance(60_000);
    await queueMail(context, boris, "other");
    clock.advance(60_000);
    const second = await queueMail(context, anna, "second");
    // The embedded outbox (no SMTP_URL): delivering records the message as sent.
    expect(await deliverDueMail(context)).toEqual({ sent: 3, failed: 0, retried: 0 });
    clock.advance(60_000);
    const third = await queueMail(context, anna, "third");

    const api = apiOf(app);
    const outbox = api.dev.mail.get({ query: { to: "aNNa@example.COM" } });
    expect((await outbox).status).toBe(200);
    const list = await dataOf(outbox);
    expect(list.map((message) => message.messageId)).toEqual([
      third.message_id,
      second.message_id,
      first.message_id,
    ]);
    const rendered = await renderMail("subscription_canceled", "kk", JSON.parse(first.data), {
      cabinetUrl: "https://kannt.example/profile",
    });
    expect(list[2]).toEqual({
      to: "Anna@Example.com",
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      kind: "subscription_canceled",
      language: "kk",
      createdAt: new Date(first.created_at).toISOString(),
      messageId: first.message_id,
      sentAt: new Date((await mailRow(context, first)).sent_at as number).toISOString(),
      status: "sent",
    });
    expect(list[0]).toMatchObject({ status: "pending", sentAt: null });
    for (const message of list) expect(message.createdAt).toMatch(isoDate);
    expect(list[1]?.sentAt).toMatch(isoDate);

    const everyone = await dataOf(api.dev.mail.get());
    expect(everyone.map((message) => message.to)).toEqual([
      "Anna@Example.com",
      "Anna@Example.com",
      "boris@example.com",
      "Anna@Example.com",
    ]);
    expect(await dataOf(api.dev.mail.get({ query: { to: "nobody@example.com" } }))).toEqual([]);
  });

  test("without an address: the latest 100 messages", async () => {
    const { app, context } = await makeTestApp();
    const userId = await makeMailCustomer(context, "many@example.com");
    const queued = await queueMails(
      context,
      userId,
      Array.from({ length: 105 }, (_, index) => `many-${index}`),
    );
    const list = await dataOf(apiOf(app).dev.mail.get());
    expect(list).toHaveLength(100);
    expect(list[0]?.messageId).toBe(queued.at(-1)?.message_id);
    expect(list.at(-1)?.messageId).toBe(queued[5]?.message_id);
  });

  test("lists also when SMTP_URL sends the mail for real", async () => {
    const { app, context } = await makeTestApp({ SMTP_URL: "smtp://user:password@127.0.0.1:9" });
    await queueMail(context, await makeMailCustomer(context, "real@example.com"), "real");
    const list = await dataOf(apiOf(app).dev.mail.get({ query: { to: "real@example.com" } }));
    expect(list).toHaveLength(1);
    context.mail.close();
  });

  test("in production it is a 404 like any unknown endpoint, and left out of the API document", async () => {
    const { app, context } = await makeTestApp({
      APP_MODE: "production",
      PUBLIC_URL: "https://kannt.example",
      GOOGLE_CLIENT_ID: "1234-kannt.apps.googleusercontent.com",
      YANDEX_CLIENT_ID: "kannt-yandex-client",
      CLOUDPAYMENTS_PUBLIC_ID: "pk_live_kannt",
      CLOUDPAYMENTS_API_URL: "https://127.0.0.1:9/",
      SMTP_URL: "smtps://user:password@127.0.0.1:9",
    });
    await queueMail(context, await makeMailCustomer(context, "prod@example.com"), "prod");
    for (const query of [{}, { to: "prod@example.com" }]) {
      const answer = await apiOf(app).dev.mail.get({ query });
      expect(answer.status).toBe(404);
      expect(answer.error?.value).toEqual({
        success: false,
        error: { code: "not_found", message: "There is no such API endpoint." },
      });
    }
    // The document is the OpenAPI plugin's own route, which the app's type does not list.
    const document = (await (await app.handle(request("/api/docs/json"))).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(document.paths)).not.toContain("/api/dev/mail");
    context.mail.close();
  });
});

describe("POST /api/panel/users/messages", () => {
  test("needs an operator's token; any operator sees a customer's messages with their delivery state, 10 per page", async () => {
    // A mail server that refuses one address for good and defers another.
    const strict: MailTransport = {
      kind: "smtp",
      concurrency: 1,
      async send(mail) {
        if (mail.to.startsWith("gone"))
          throw new MailDeliveryError("550 5.1.1 Mailbox gone", "message", true);
        if (mail.to.startsWith("full"))
          throw new MailDeliveryError("452 4.2.2 Mailbox full", "message", false);
      },
      close: () => {},
    };
    const { app, context, clock } = await makeTestApp({}, { mail: strict });
    const reader = await makeMailCustomer(context, "reader@example.com", "ru");
    const gone = await makeMailCustomer(context, "gone@example.com");
    const full = await makeMailCustomer(context, "full@example.com");
    const queued = await queueMails(
      context,
      reader,
      Array.from({ length: 11 }, (_, index) => `reader-${index}`),
    );
    await queueMail(context, gone, "gone");
    await queueMail(context, full, "full");
    const deliveredFrom = clock.now();
    await deliverDueMail(context);
    const pending = await queueMail(context, reader, "reader-pending");

    const messages = apiOf(app).panel.users.messages;
    expect((await messages.post({}, { query: { userId: reader } })).status).toBe(401);
    expect((await messages.post({}, { ...staffOf("not-a-token"), query: { userId: reader } })).status).toBe(
      401,
    );

    const support = await makeOperator(context, "mail-support", "support");
    const { accessToken } = await tokensFor(app, support.username, support.password);
    type Query = { userId: number; page?: number; size?: number };
    const call = (query: Query) => messages.post({}, { ...staffOf(accessToken), query });
    const pageOf = (query: Query) => dataOf(call(query));

    const first = call({ userId: reader });
    expect((await first).status).toBe(200);
    const firstPage = await dataOf(first);
    expect(firstPage.page).toEqual({ size: 10, number: 0, totalElements: 12, totalPages: 2 });
    const [newest, sent] = firstPage.content;
    expect(newest).toMatchObject({
      messageId: pending.message_id,
      status: "pending",
      attempts: 0,
      sentAt: null,
      lastError: null,
      nextAttemptAt: new Date(pending.next_attempt_at).toISOString(),
    });
    const rendered = await renderMail("subscription_canceled", "ru", JSON.parse(queued[10]?.data ?? "{}"), {
      cabinetUrl: `${context.config.publicUrl}/profile`,
    });
    expect(sent).toEqual({
      id: queued[10]?.id,
      kind: "subscription_canceled",
      language: "ru",
      to: "reader@example.com",
      subject: rendered.subject,
      // The caller named no language: the subject is also worded in English for it.
      subjectForReader: (
        await renderMail("subscription_canceled", "en", JSON.parse(queued[10]?.data ?? "{}"), {
          cabinetUrl: `${context.config.publicUrl}/profile`,
        })
      ).subject,
      status: "sent",
      attempts: 1,
      lastError: null,
      createdAt: new Date(queued[10]?.created_at as number).toISOString(),
      sentAt: expect.stringMatching(isoDate),
      nextAttemptAt: null,
      messageId: queued[10]?.message_id,
    });
    const second = await pageOf({ userId: reader, page: 1 });
    expect(second.content.map((record) => record.messageId)).toEqual([
      queued[1]?.message_id,
      queued[0]?.message_id,
    ]);

    expect((await pageOf({ userId: gone })).content).toEqual([
      expect.objectContaining({
        status: "failed",
        attempts: 1,
        lastError: "550 5.1.1 Mailbox gone",
        nextAttemptAt: null,
      }),
    ]);
    const deferred = (await pageOf({ userId: full })).content[0];
    expect(deferred).toMatchObject({ status: "pending", attempts: 1, lastError: "452 4.2.2 Mailbox full" });
    // Deferred by the first backoff from when it was tried, however long ago that was.
    expect(Date.parse(deferred?.nextAttemptAt ?? "")).toBeGreaterThanOrEqual(deliveredFrom + retryDelayMs(1));

    expect((await call({ userId: reader, size: 20 })).status).toBe(400);
    expect((await call({ userId: 0 })).status).toBe(400);
    expect(await pageOf({ userId: 999_999 })).toEqual({
      content: [],
      page: { size: 10, number: 0, totalElements: 0, totalPages: 0 },
    });
  });

  test("a Russian customer's message read on a Kazakh panel: the subject as sent, and worded in Kazakh", async () => {
    const { app, context, clock } = await makeTestApp();
    const customer = await makeMailCustomer(context, "renews@example.com", "ru");
    const chargeAt = Date.UTC(2027, 0, 1, 9);
    await context.database.transaction(() =>
      enqueueMail(
        context.database,
        {
          userId: customer,
          kind: "renewal_notice",
          data: {
            chargeAt,
            charge: { amount: 15_000, currency: "RUB" },
            tariffMonths: 1,
            cancelUrl: "https://kannt.example/cancel?token=t",
          },
          eventKey: "renews-notice",
        },
        clock.now(),
      ),
    );
    const support = await makeOperator(context, "kk-reader", "support");
    const { accessToken } = await tokensFor(app, support.username, support.password);
    const inKazakh = apiOf(app).panel.users.messages.post(
      {},
      { headers: { ...staffOf(accessToken).headers, cookie: "i18next=kk" }, query: { userId: customer } },
    );
    expect((await inKazakh).status).toBe(200);
    const [message] = (await dataOf(inKazakh)).content;
    expect(message?.subject).toMatch(/^Подписка Kannt продлится 1 января: 150\s₽$/);
    expect(message?.subjectForReader).toMatch(/^Kannt жазылымы ұзартылады: 1 қаңтар, 150\s₽$/);
  });
});
