import { afterAll, describe, expect, test } from "vitest";
import {
  createSmtpTransport,
  MailDeliveryError,
  type OutgoingMail,
} from "../../../bff/modules/mail/transport";
import { apiOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { demoToken } from "../../helpers/customers";
import { freePort, startSmtpServer } from "../../helpers/smtp-server";

// A customer's e-mail reaches the mail server as one recipient, theirs: never a list,
// a display name, or a header of its own.

const smtp = await startSmtpServer(await freePort());
const transport = createSmtpTransport(smtp.url);
afterAll(async () => {
  transport.close();
  await smtp.stop();
});

const mailTo = (to: string, messageId: string): OutgoingMail => ({
  from: "Kannt <no-reply@kannt.example>",
  to,
  subject: "Your receipt",
  text: "Thank you.",
  html: "<p>Thank you.</p>",
  messageId: `${messageId}@kannt.example`,
  kind: "receipt",
});

const hostile = [
  "a@x.com, b@y.com",
  "a@x.com,b@y.com",
  "a,b@y.com",
  "a@x.com; b@y.com",
  "Evil <a@x.com>",
  "Evil<a@x.com>",
  "<a@x.com>",
  '"b@y.com" a@x.com',
  "a@x.com\nBcc: b@y.com",
  "a@x.com\r\nb@y.com",
  "a@x.com (b@y.com)",
  "group: a@x.com, b@y.com;",
];

describe("the mail transport sends to one address", () => {
  test("a plain address gets the message, as its only recipient", async () => {
    await transport.send(mailTo("first.last+tag@example.com", "plain-1"));
    const mail = smtp.received.at(-1);
    expect(mail?.envelopeTo).toEqual(["first.last+tag@example.com"]);
    expect(mail?.parsed.to?.map((to) => ("address" in to ? to.address : ""))).toEqual([
      "first.last+tag@example.com",
    ]);
  });

  test.each(hostile)("%j is refused for good and reaches no one", async (address) => {
    const before = smtp.received.length;
    const sent = transport.send(mailTo(address, `hostile-${before}`));
    await expect(sent).rejects.toBeInstanceOf(MailDeliveryError);
    await expect(sent).rejects.toMatchObject({ scope: "message", isPermanent: true });
    expect(smtp.received.length).toBe(before);
  });
});

describe("sign-in takes the provider's e-mail only as one plain address", () => {
  test.each(["a,b@y.com", "Evil<a@x.com>", "a;b@y.com"])(
    "%j is refused with a 400 and no account is made",
    async (email) => {
      const { app, context } = await makeTestApp();
      const token = await demoToken(app, email);
      const answer = await apiOf(app).register.post({
        uid: token.uid,
        email: token.email,
        photoURL: token.photoURL,
        providerId: token.providerId,
        referralCode: "",
        period: 30,
        tariff: 1,
        credential: token.credential,
      });
      expect(answer.status).toBe(400);
      expect(answer.error?.value).toMatchObject({
        success: false,
        error: {
          code: "email_not_plain",
          message:
            "The e-mail address of this account is not a single plain address (like name@example.com), so it cannot be used here.",
        },
      });
      const users = await context.database.get<{ count: number }>("SELECT COUNT(*) AS count FROM users", []);
      expect(Number(users?.count)).toBe(0);
    },
  );
});
