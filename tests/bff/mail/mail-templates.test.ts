import { describe, expect, test } from "vitest";
import type { MailData, MailKind, MailLinks } from "../../../bff/modules/mail/kinds";
import { mailKinds } from "../../../bff/modules/mail/kinds";
import { renderMail } from "../../../bff/modules/mail/render";
import { company } from "../../../core/company";
import { translator } from "../../../core/i18n";
import { type Language, languages } from "../../../core/languages";
import { clockIn, dateIn, zoneOf, zoneWords } from "../../helpers/mail";

// Instants chosen so the calendar day depends on the clock: at 20:30 and 19:45 UTC it is
// still the same day in Moscow (UTC+3) but already the next one in Almaty (UTC+5); at 22:30
// UTC it is the next day in both, but not in UTC. A mail on the wrong clock shows another day.
const march = Date.UTC(2027, 2, 12, 20, 30);
const april = Date.UTC(2027, 3, 10, 22, 30);
const may = Date.UTC(2027, 4, 20, 19, 45);

// Amounts written out by hand (thin no-break space between thousands, no-break space before the sign).
const money = {
  RUB: { amount: 108_050, currency: "RUB", written: "1\u202f080,50\u00a0₽" },
  KZT: { amount: 640_000, currency: "KZT", written: "6\u202f400\u00a0₸" },
} as const;
const moneyFor = (language: Language) => (language === "kk" ? money.KZT : money.RUB);

const links: MailLinks = { cabinetUrl: "https://kannt.test/ru/cabinet" };
const cancelUrl = "https://kannt.test/cancel?token=eyJ1IjoxMn0.c2lnbmF0dXJl";
const receiptUrl = "https://kannt.test/api/profile/payments/41/receipt";

type Sample<K extends MailKind> = {
  data: MailData[K];
  /** The instants the mail states, and whether it states the time of day as well. */
  dates: { time: number; withClock: boolean }[];
  hasAmount: boolean;
};

function sampleOf<K extends MailKind>(kind: K, language: Language): Sample<K> {
  const { amount, currency } = moneyFor(language);
  const charge = { amount, currency };
  const samples: { [P in MailKind]: Sample<P> } = {
    trial_started: {
      data: { trialDays: 3, firstChargeAt: march, firstCharge: charge, tariffMonths: 1 },
      dates: [{ time: march, withClock: true }],
      hasAmount: true,
    },
    renewal_notice: {
      data: { chargeAt: may, charge, tariffMonths: 6, cancelUrl },
      dates: [{ time: may, withClock: true }],
      hasAmount: true,
    },
    payment_succeeded: {
      data: { charge, paidAt: march, what: "subscription", tariffMonths: 12, paidUntil: april, receiptUrl },
      dates: [
        { time: march, withClock: false },
        { time: april, withClock: true },
      ],
      hasAmount: true,
    },
    payment_failed: {
      data: { charge, failedAt: march, nextRetryAt: may, accessUntil: april },
      dates: [
        { time: march, withClock: false },
        { time: may, withClock: false },
        { time: april, withClock: true },
      ],
      hasAmount: true,
    },
    subscription_canceled: {
      data: { accessUntil: march },
      dates: [{ time: march, withClock: true }],
      hasAmount: false,
    },
    card_removed: {
      data: { lastFour: "4242", accessUntil: may },
      dates: [{ time: may, withClock: true }],
      hasAmount: false,
    },
    subscription_ended: {
      data: { endedAt: april },
      dates: [{ time: april, withClock: false }],
      hasAmount: false,
    },
    refund_made: {
      data: { refund: charge, refundedAt: may, payments: 2 },
      dates: [{ time: may, withClock: false }],
      hasAmount: true,
    },
    sbp_autopay_canceled: {
      data: { accessUntil: may },
      dates: [{ time: may, withClock: true }],
      hasAmount: false,
    },
  };
  return samples[kind] as Sample<K>;
}

const scriptOf: Record<Language, RegExp> = {
  ru: /^[^\u4e00-\u9fff]*[А-Яа-яЁё][^\u4e00-\u9fff]*$/,
  kk: /[әғқңөұүһіӘҒҚҢӨҰҮҺІ]/,
  zh: /[\u4e00-\u9fff]/,
  en: /^[^А-Яа-яЁё\u4e00-\u9fff]*[A-Za-z][^А-Яа-яЁё\u4e00-\u9fff]*$/,
};
const kazakhLetters = /[әғқңөұүһіӘҒҚҢӨҰҮҺІ]/;
const escapeAttribute = (value: string) => value.replaceAll("&", "&amp;");

const cases = mailKinds.flatMap((kind) => languages.map((language) => [kind, language] as const));

describe.each(cases)("%s in %s", (kind, language) => {
  const sample = sampleOf(kind, language);
  let rendered: ReturnType<typeof renderMail> | undefined;
  const mail = () => {
    rendered ??= renderMail(kind, language, sample.data, links);
    return rendered;
  };

  test("the subject is short and in the mail's language", async () => {
    const { subject } = await mail();
    expect(subject.length).toBeGreaterThan(10);
    expect(subject.length).toBeLessThan(80);
    expect(subject).toMatch(scriptOf[language]);
    if (language === "ru") expect(subject).not.toMatch(kazakhLetters);
    if (language === "kk") expect(subject).toMatch(/[А-Яа-я]/);
  });

  test("states every date on the customer's clock, in the mail's language", async () => {
    const { text, html } = await mail();
    const zone = zoneOf(language);
    for (const { time, withClock } of sample.dates) {
      const day = dateIn(language, time, zone);
      expect(text).toContain(day);
      expect(html).toContain(day);
      for (const otherZone of ["UTC", "Europe/Moscow", "Asia/Almaty"]) {
        const otherDay = dateIn(language, time, otherZone);
        if (otherDay !== day) expect(text).not.toContain(otherDay);
      }
      if (withClock) {
        for (const part of [text, html]) {
          expect(part).toContain(clockIn(language, time, zone));
          expect(part).toContain(zoneWords[language]);
        }
      }
    }
  });

  test("links the cabinet, names the company and says why it was sent", async () => {
    const { text, html } = await mail();
    expect(text).toContain(links.cabinetUrl);
    expect(html).toContain(`href="${links.cabinetUrl}"`);
    for (const part of [text, html]) {
      expect(part).toContain(company.legalName);
      expect(part).toContain(company.taxNumber);
      expect(part).toContain(company.productName);
      expect(part).toContain(company.supportEmail);
    }
  });

  test("the HTML declares its language and runs nothing; the text has no markup", async () => {
    const { text, html } = await mail();
    expect(html).toMatch(new RegExp(`<html[^>]*\\slang="${language}"`));
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(text).not.toMatch(/<\/?[a-z][^>]*>/i);
    expect(text).not.toMatch(/&(amp|lt|gt|quot|nbsp|#\d+);/);
    if (language === "kk") expect(text).toMatch(kazakhLetters);
    if (language === "zh") expect(text).toMatch(/[\u4e00-\u9fff]/);
  });

  test("renders the same bytes for the same input", async () => {
    const again = await renderMail(kind, language, sample.data, links);
    expect(again).toEqual(await mail());
  });
});

const casesWithAmount = cases.filter(([kind, language]) => sampleOf(kind, language).hasAmount);

test.each(casesWithAmount)("%s in %s states the exact amount", async (kind, language) => {
  const { text, html } = await renderMail(kind, language, sampleOf(kind, language).data, links);
  const { written } = moneyFor(language);
  expect(text).toContain(written);
  expect(html).toContain(written);
});

describe.each(languages)("in %s", (language) => {
  const site = translator(language);

  test("the renewal notice says how to cancel and carries the cancel link, valid 7 days", async () => {
    const { data } = sampleOf("renewal_notice", language);
    const { text, html } = await renderMail("renewal_notice", language, data, links);
    expect(text).toContain(cancelUrl);
    expect(html).toContain(`href="${escapeAttribute(cancelUrl)}"`);
    expect(text).toContain(site("cabinet.cancelSubscription"));
    expect(text).toContain({ ru: "7 дней", en: "7 days", zh: "7 天", kk: "7 күн" }[language]);
  });

  test("a payment's mail carries its receipt link", async () => {
    const { data } = sampleOf("payment_succeeded", language);
    const { text, html } = await renderMail("payment_succeeded", language, data, links);
    expect(text).toContain(receiptUrl);
    expect(html).toContain(`href="${receiptUrl}"`);
  });

  test("a declined payment with no retry left says no more attempts will be made", async () => {
    const data: MailData["payment_failed"] = {
      charge: { amount: moneyFor(language).amount, currency: moneyFor(language).currency },
      failedAt: march,
      nextRetryAt: null,
      accessUntil: null,
    };
    const { text } = await renderMail("payment_failed", language, data, links);
    expect(text).toContain(
      { ru: "Больше попыток", en: "will not try", zh: "不会再尝试", kk: "енді әрекет жасалмайды" }[language],
    );
    expect(text).toContain(dateIn(language, march, zoneOf(language)));
  });

  test("the refund mail says the bank may take up to 60 days", async () => {
    const { data } = sampleOf("refund_made", language);
    const { text } = await renderMail("refund_made", language, data, links);
    expect(text).toContain("60");
  });

  test("a value carrying markup is shown as text, never as markup", async () => {
    const hostile = { cabinetUrl: "https://kannt.test/cabinet?x=<b>bold</b>" };
    const { html } = await renderMail(
      "card_removed",
      language,
      { lastFour: "<b>42", accessUntil: may },
      hostile,
    );
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;b&gt;42");
    expect(html).toContain("&lt;b&gt;bold&lt;/b&gt;");
  });
});
