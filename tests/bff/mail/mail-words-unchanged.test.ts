import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import type { MailContent, MailData, MailKind, MailLinks } from "../../../bff/modules/mail/kinds";
import { mailKinds } from "../../../bff/modules/mail/kinds";
import { renderMail } from "../../../bff/modules/mail/render";
import { type Language, languages } from "../../../core/languages";

/**
 * Every mail kind in every language, with fixed facts, against the bytes recorded in
 * tests/fixtures/mail-words.json: moving the words between files must not change a letter a
 * customer receives. The variants walk each branch of a template and each plural form
 * (1, 3, 5, 11, 21, 22: Russian's one, few and many, the teens and the twenties).
 * The subject and the plain text are kept whole, so a change shows as words; the HTML, whose
 * words are the same and whose markup is React Email's, by its SHA-256 and length.
 * After a deliberate change of wording, `MAIL_WORDS_WRITE=1` rewrites the fixture.
 */
const fixturePath = new URL("../../fixtures/mail-words.json", import.meta.url);

// The same instants as mail-templates.test.ts: the day differs between Moscow, Almaty and UTC.
const march = Date.UTC(2027, 2, 12, 20, 30);
const april = Date.UTC(2027, 3, 10, 22, 30);
const may = Date.UTC(2027, 4, 20, 19, 45);

const links: MailLinks = { cabinetUrl: "https://kannt.test/profile" };
const cancelUrl = "https://kannt.test/cancel?token=eyJ1IjoxMn0.c2lnbmF0dXJl";
const receiptUrl = "https://kannt.test/api/profile/payments/41/receipt";

type Variants = { [K in MailKind]: Record<string, MailData[K]> };

function variantsIn(language: Language): Variants {
  const currency = language === "kk" ? "KZT" : "RUB";
  const charge = { amount: 108_050, currency } as const;
  const round = { amount: 1_234_500, currency } as const;
  const trial = (trialDays: number, tariffMonths: number): MailData["trial_started"] => ({
    trialDays,
    firstChargeAt: march,
    firstCharge: charge,
    tariffMonths,
  });
  return {
    trial_started: {
      "1 day, 1 month": trial(1, 1),
      "3 days, 3 months": trial(3, 3),
      "5 days, 6 months": trial(5, 6),
      "11 days, 12 months": trial(11, 12),
      "21 days, 21 months": trial(21, 21),
      "22 days, 22 months": trial(22, 22),
    },
    renewal_notice: {
      monthly: { chargeAt: may, charge, tariffMonths: 1, cancelUrl },
      "half-yearly": { chargeAt: april, charge: round, tariffMonths: 6, cancelUrl },
      yearly: { chargeAt: march, charge, tariffMonths: 12, cancelUrl },
    },
    payment_succeeded: {
      subscription: {
        charge,
        paidAt: march,
        what: "subscription",
        tariffMonths: 12,
        paidUntil: april,
        receiptUrl,
      },
      "no plan, no end": {
        charge: round,
        paidAt: may,
        what: "subscription",
        tariffMonths: null,
        paidUntil: null,
        receiptUrl,
      },
      device: { charge, paidAt: april, what: "device", tariffMonths: null, paidUntil: may, receiptUrl },
    },
    payment_failed: {
      "retry ahead": { charge, failedAt: march, nextRetryAt: may, accessUntil: april },
      "last try": { charge: round, failedAt: april, nextRetryAt: null, accessUntil: may },
      "access ended": { charge, failedAt: may, nextRetryAt: null, accessUntil: null },
    },
    subscription_canceled: {
      march: { accessUntil: march },
      may: { accessUntil: may },
    },
    card_removed: {
      "card and access": { lastFour: "4242", accessUntil: may },
      "no card, access": { lastFour: null, accessUntil: april },
      "card, no access": { lastFour: "0005", accessUntil: null },
    },
    subscription_ended: {
      april: { endedAt: april },
      march: { endedAt: march },
    },
    refund_made: {
      "two payments": { refund: charge, refundedAt: may, payments: 2 },
      "one payment": { refund: round, refundedAt: march, payments: 1 },
    },
    sbp_autopay_canceled: {
      "access until": { accessUntil: may },
      "access ended": { accessUntil: null },
    },
  };
}

const cases = languages.flatMap((language) => {
  const variants = variantsIn(language);
  return mailKinds.flatMap((kind) =>
    Object.entries(variants[kind]).map(([name, data]) => ({
      name: `${kind} ${language} ${name}`,
      kind,
      language,
      data: data as MailData[MailKind],
    })),
  );
});

type Recorded = { subject: string; text: string; htmlSha256: string; htmlLength: number };

const recordOf = ({ subject, text, html }: MailContent): Recorded => ({
  subject,
  text,
  htmlSha256: createHash("sha256").update(html).digest("hex"),
  htmlLength: html.length,
});

async function renderAll(): Promise<Record<string, Recorded>> {
  const rendered: Record<string, Recorded> = {};
  for (const { name, kind, language, data } of cases) {
    rendered[name] = recordOf(await renderMail(kind, language, data, links));
  }
  return rendered;
}

if (process.env.MAIL_WORDS_WRITE === "1") {
  writeFileSync(fixturePath, `${JSON.stringify(await renderAll(), null, 2)}\n`);
}

const recorded: Record<string, Recorded> = existsSync(fixturePath)
  ? JSON.parse(readFileSync(fixturePath, "utf8"))
  : {};

describe("the words of every mail stay as recorded", () => {
  test("the fixture holds every case and nothing else", () => {
    expect(Object.keys(recorded).sort()).toEqual(cases.map(({ name }) => name).sort());
  });

  test.each(cases)("$name", async ({ name, kind, language, data }) => {
    const mail = recordOf(await renderMail(kind, language, data, links));
    expect(mail).toEqual(recorded[name]);
  });
});
