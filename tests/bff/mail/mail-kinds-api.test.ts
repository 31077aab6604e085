import { beforeAll, describe, expect, test } from "vitest";
import { type Language, languages } from "../../../core/languages";
import { apiOf, dataOf, identityOf, sessionOf } from "../../helpers/api";
import { makeTestApp, request } from "../../helpers/app";
import { type SignedIn, signIn } from "../../helpers/customers";
import { cards, order, passDays, payWithCard } from "../../helpers/payments";
import { panelRefund, staffHeaders } from "../../helpers/refunds";

// DESIGN §14, read as the customer reads it: for a customer of each language, real flows
// through the API (sign-in, order, sandbox card, the scheduler's passes, cancel, card
// removal, an operator's refund) produce every kind of mail, and each one, as GET
// /api/dev/mail shows it, states the amount and the dates of the rows it tells of, in the
// customer's language and on the customer's clock (Moscow, Almaty for kk). Amounts and
// dates are written here with Intl, not with the product's formatting code, so a mail
// stating a wrong figure or day, or one on the wrong clock, fails.

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;
type Currency = "RUB" | "KZT";

type Payment = {
  id: number;
  kind: string;
  amount: number;
  currency: Currency;
  status: string;
  refunded_amount: number;
  refunded_at: number | null;
  created_at: number;
  updated_at: number;
};

type Subscription = {
  status: string;
  currency: Currency;
  period_price: number;
  tariff_months: number;
  end_date: number;
  next_charge_at: number | null;
};

type Notice = { charge_at: number; amount: number; message_id: string };

const dayMs = 86_400_000;
const minuteMs = 60_000;

// ---- Independent formatting: what the customer should read ---------------------------

const zoneOf = (language: Language) => (language === "kk" ? "Asia/Almaty" : "Europe/Moscow");
/** English mails write dates the European way ("13 March 2027"). */
const localeOf: Record<Language, string> = { ru: "ru", en: "en-GB", zh: "zh-CN", kk: "kk" };
/** How each language names the clock a charge's moment is on. */
const zoneWords: Record<Language, string> = {
  ru: "по московскому времени",
  en: "(Moscow time)",
  zh: "（莫斯科时间）",
  kk: "(Алматы уақытымен)",
};

/** "13 марта 2027 г.", "13 March 2027", "2027年3月13日", "2027 ж. 13 наурыз" on the customer's clock. */
const dateIn = (language: Language, time: number) =>
  new Intl.DateTimeFormat(localeOf[language], {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: zoneOf(language),
  }).format(time);

/** "23:30" on the customer's clock. */
const clockIn = (language: Language, time: number) =>
  new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: zoneOf(language),
  }).format(time);

/**
 * "1 080 ₽", "6 400,50 ₸": whole units (kopecks only when there are some), a thin no-break
 * space between thousands and a no-break space before the sign, in every language.
 */
function moneyText(minorUnits: number, currency: Currency): string {
  const units = minorUnits / 100;
  const fractionDigits = Number.isInteger(units) ? 0 : 2;
  return new Intl.NumberFormat("ru-RU", {
    style: "currency",
    currency,
    currencyDisplay: "narrowSymbol",
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  })
    .formatToParts(units)
    .map((part) => {
      if (part.type === "group") return "\u202f";
      if (part.type === "literal") return "\u00a0";
      return part.value;
    })
    .join("");
}

/** Letters a subject in each language is written in (and, for Russian, none only Kazakh has). */
const scriptOf: Record<Language, RegExp> = {
  ru: /^[^\u4e00-\u9fffәғқңөұүһіӘҒҚҢӨҰҮҺІ]*[А-Яа-яЁё][^\u4e00-\u9fffәғқңөұүһіӘҒҚҢӨҰҮҺІ]*$/,
  en: /^[^А-Яа-яЁё\u4e00-\u9fff]*[A-Za-z][^А-Яа-яЁё\u4e00-\u9fff]*$/,
  zh: /[\u4e00-\u9fff]/,
  kk: /[А-Яа-я]/,
};

// ---- The story each language's customers live through --------------------------------

type Customer = SignedIn & { userId: number };

type Story = {
  world: TestApp;
  language: Language;
  currency: Currency;
  /** Renews (a yearly plan, so amounts run to thousands), then an operator refunds the renewal. */
  renews: Customer;
  /** The card pays the trial and declines every renewal: three attempts, then the end. */
  declined: Customer;
  cancels: Customer;
  removesCard: Customer;
  /** Rows as they stood at the moments the mails were queued. */
  afterTrial: Map<number, Subscription>;
  afterRenewal: Subscription;
  afterEachDecline: Subscription[];
  afterCancel: Subscription;
  afterCardRemoval: Subscription;
  mails: Map<number, OutboxMail[]>;
};

const subscriptionOf = async ({ context }: TestApp, userId: number) =>
  (await context.database.get<Subscription>(
    `SELECT status, currency, period_price, tariff_months, end_date, next_charge_at
       FROM subscriptions WHERE user_id = ? ORDER BY id DESC LIMIT 1`,
    [userId],
  )) as Subscription;

const paymentsOf = ({ context }: TestApp, userId: number) =>
  context.database.all<Payment>(
    `SELECT id, kind, amount, currency, status, refunded_amount, refunded_at, created_at, updated_at
       FROM payments WHERE user_id = ? ORDER BY id`,
    [userId],
  );

const noticesOf = ({ context }: TestApp, userId: number) =>
  context.database.all<Notice>(
    `SELECT n.charge_at, n.amount, m.message_id
       FROM renewal_notices n JOIN mail_outbox m ON m.id = n.mail_id JOIN subscriptions s ON s.id = n.subscription_id
       WHERE s.user_id = ? ORDER BY n.id`,
    [userId],
  );

const userIdOf = async ({ context }: TestApp, email: string) =>
  (await context.database.get<{ id: number }>("SELECT id FROM users WHERE email = ?", [email]))?.id as number;

/** The outbox as the demo shows it, oldest first (the API lists newest first). */
async function outboxOf({ app }: TestApp, address: string) {
  const outbox = apiOf(app).dev.mail.get({ query: { to: address } });
  expect((await outbox).status).toBe(200);
  const newestFirst = await dataOf(outbox);
  const times = newestFirst.map((mail) => Date.parse(mail.createdAt));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  return newestFirst.reverse();
}

type OutboxMail = Awaited<ReturnType<typeof outboxOf>>[number];

/**
 * Moves the test clock to the next `hour`:`minute` UTC. The stories start at a time of
 * day where the customer's calendar day differs from the other clocks a mail could be
 * written on by mistake: 21:30 UTC is already the next day in Moscow (not in UTC), and
 * 19:30 UTC is already the next day in Almaty (in neither Moscow nor UTC). Every event
 * below then falls within minutes after that time of day.
 */
async function moveClockTo({ app, clock }: TestApp, hour: number, minute: number) {
  const now = clock.now();
  const startOfDay = now - (now % dayMs);
  let target = startOfDay + hour * 3_600_000 + minute * minuteMs;
  if (target <= now) target += dayMs;
  const moved = await apiOf(app).dev.clock.post({ advanceDays: (target - now) / dayMs });
  expect(moved.status).toBe(200);
}

async function customer(world: TestApp, email: string, language: Language, tariff = 1): Promise<Customer> {
  const signedIn = await signIn(world.app, email, {
    period: 1,
    tariff,
    headers: { "accept-language": language },
  });
  return { ...signedIn, userId: await userIdOf(world, email) };
}

async function payTrial(world: TestApp, who: Customer, card: string, tariff = 1) {
  const widget = await order(world.app, who, tariff, 1);
  // The trial's first payment (DESIGN §5): 1 rouble, or 10 tenge.
  expect(widget.amount).toBe(widget.currency === "KZT" ? 10 : 1);
  expect((await payWithCard(world.app, widget.invoiceId, card)).success).toBe(true);
}

async function liveThrough(language: Language): Promise<Story> {
  const world = await makeTestApp();
  const staff = await staffHeaders(world.app, world.context);
  if (language === "kk") await moveClockTo(world, 19, 30);
  else await moveClockTo(world, 21, 30);

  const address = (role: string) => `${role}-${language}@example.com`;
  const renews = await customer(world, address("renews"), language, 12);
  const declined = await customer(world, address("declined"), language);
  const cancels = await customer(world, address("cancels"), language);
  const removesCard = await customer(world, address("removes-card"), language);

  // Day 0: four one-day trials; one customer cancels, one removes the card.
  await payTrial(world, renews, cards.success, 12);
  await payTrial(world, declined, cards.firstThenDeclined);
  await payTrial(world, cancels, cards.success);
  await payTrial(world, removesCard, cards.success);
  const afterTrial = new Map<number, Subscription>();
  for (const who of [renews, declined, cancels, removesCard])
    afterTrial.set(who.userId, await subscriptionOf(world, who.userId));
  const api = apiOf(world.app);
  expect((await api.subscriptions.cancel.post(identityOf(cancels), sessionOf(cancels))).status).toBe(200);
  const afterCancel = await subscriptionOf(world, cancels.userId);
  expect((await api.profile.removeCard.post(identityOf(removesCard), sessionOf(removesCard))).status).toBe(
    200,
  );
  const afterCardRemoval = await subscriptionOf(world, removesCard.userId);

  // Day 1: notices went out on day 0; the yearly plan renews, the declining card fails its
  // first attempt, the card-less period ends. Then an operator refunds the renewal.
  await passDays(world.app, 1 + 1 / 1440);
  const afterRenewal = await subscriptionOf(world, renews.userId);
  expect(afterRenewal.status).toBe("ACTIVE");
  const afterEachDecline = [await subscriptionOf(world, declined.userId)];
  expect((await subscriptionOf(world, removesCard.userId)).status).toBe("EXPIRED");
  const refund = await panelRefund(world.app, await staff.admin(), { email: renews.email, uid: renews.uid });
  expect(refund.Success).toBe(true);

  // Day 2, the first retry; day 4, the last one, and the end.
  await passDays(world.app, 1);
  afterEachDecline.push(await subscriptionOf(world, declined.userId));
  await passDays(world.app, 2);
  afterEachDecline.push(await subscriptionOf(world, declined.userId));
  expect(afterEachDecline.map((row) => row.status)).toEqual(["ACTIVE", "ACTIVE", "EXPIRED"]);

  const mails = new Map<number, OutboxMail[]>();
  for (const who of [renews, declined, cancels, removesCard])
    mails.set(who.userId, await outboxOf(world, who.email));
  return {
    world,
    language,
    currency: language === "kk" ? "KZT" : "RUB",
    renews,
    declined,
    cancels,
    removesCard,
    afterTrial,
    afterRenewal,
    afterEachDecline,
    afterCancel,
    afterCardRemoval,
    mails,
  };
}

// ---- Checks -----------------------------------------------------------------------------

type Statement = {
  /** Amounts in minor units. */
  amounts?: number[];
  /** Instants the mail states as a calendar day. */
  dates?: number[];
  /** Instants the mail states with their time of day and clock (a charge's moment). */
  moments?: number[];
  /** Anything else both parts must carry. */
  also?: string[];
};

/** The mail is the customer's, in the customer's language, delivered, and both its parts state these facts. */
function expectStates(story: Story, mail: OutboxMail | undefined, statement: Statement) {
  expect(mail).toBeDefined();
  if (!mail) return;
  const { language, currency } = story;
  const label = `${mail.kind} to ${mail.to}`;
  expect(mail.language, label).toBe(language);
  expect(mail.status, label).toBe("sent");
  expect(mail.sentAt, label).not.toBeNull();
  expect(mail.subject.trim(), label).not.toBe("");
  expect(mail.subject, label).toMatch(scriptOf[language]);
  const expected = [
    ...(statement.amounts ?? []).map((amount) => moneyText(amount, currency)),
    ...[...(statement.dates ?? []), ...(statement.moments ?? [])].map((time) => dateIn(language, time)),
    ...(statement.moments ?? []).flatMap((time) => [clockIn(language, time), zoneWords[language]]),
    ...(statement.also ?? []),
  ];
  for (const fact of expected) {
    expect(mail.text, `${label}: text`).toContain(fact);
    expect(mail.html, `${label}: html`).toContain(fact);
  }
}

const ofKind = (story: Story, who: Customer, kind: string) =>
  (story.mails.get(who.userId) ?? []).filter((mail) => mail.kind === kind);

const onlyOfKind = (story: Story, who: Customer, kind: string) => {
  const found = ofKind(story, who, kind);
  expect(found, `${kind} to ${who.email}`).toHaveLength(1);
  return found[0];
};

describe.each(languages)("every kind of mail to customers registered in %s", (language) => {
  let story: Story;
  beforeAll(async () => {
    story = await liveThrough(language);
  });

  test("each customer got exactly the mails of what happened, and nothing from another address", () => {
    const kinds = (who: Customer) => story.mails.get(who.userId)?.map((mail) => mail.kind);
    expect(kinds(story.renews)).toEqual([
      "trial_started",
      "renewal_notice",
      "payment_succeeded",
      "refund_made",
    ]);
    expect(kinds(story.declined)).toEqual([
      "trial_started",
      "renewal_notice",
      "payment_failed",
      "payment_failed",
      "payment_failed",
      "subscription_ended",
    ]);
    // Cancelled, then its paid period ran out: EXPIRED (DESIGN §5), and told so.
    expect(kinds(story.cancels)).toEqual(["trial_started", "subscription_canceled", "subscription_ended"]);
    expect(kinds(story.removesCard)).toEqual(["trial_started", "card_removed", "subscription_ended"]);
    for (const who of [story.renews, story.declined, story.cancels, story.removesCard])
      for (const mail of story.mails.get(who.userId) ?? []) expect(mail.to).toBe(who.email);
  });

  test("trial_started: the first full charge's moment and amount", () => {
    for (const who of [story.renews, story.declined, story.cancels, story.removesCard]) {
      const started = story.afterTrial.get(who.userId) as Subscription;
      expect(started.currency).toBe(story.currency);
      expect(started.next_charge_at).not.toBeNull();
      expectStates(story, onlyOfKind(story, who, "trial_started"), {
        moments: [started.next_charge_at as number],
        amounts: [started.period_price],
      });
    }
  });

  test("renewal_notice: the charge's moment and amount, as the notice row holds them, and a cancel link that works", async () => {
    for (const who of [story.renews, story.declined]) {
      const [notice] = await noticesOf(story.world, who.userId);
      expect(notice).toBeDefined();
      const mail = onlyOfKind(story, who, "renewal_notice");
      expect(mail?.messageId).toBe(notice?.message_id);
      // The notice is for the charge the trial mail announced: the same day and minute (it
      // may state a few milliseconds later, as a charge comes 24 hours after its notice at least).
      const announced = story.afterTrial.get(who.userId)?.next_charge_at as number;
      expect(Math.abs((notice?.charge_at as number) - announced)).toBeLessThan(minuteMs);
      expect(clockIn(language, notice?.charge_at as number)).toBe(clockIn(language, announced));
      expectStates(story, mail, {
        moments: [notice?.charge_at as number],
        amounts: [notice?.amount as number],
        also: [`${story.world.context.config.publicUrl}/cancel?token=`],
      });
      const token = /\/cancel\?token=([\w.-]+)/.exec(mail?.text ?? "")?.[1] ?? "";
      expect(mail?.html).toContain(`/cancel?token=${token}`);
      const opened = await apiOf(story.world.app).subscriptions["cancel-link"].post({ token });
      expect(opened.status).toBe(200);
      expect(opened.data).toMatchObject({ email: who.email });
    }
    const renewal = (await paymentsOf(story.world, story.renews.userId)).find(
      (row) => row.kind === "renewal",
    );
    expect(renewal?.amount).toBe((await noticesOf(story.world, story.renews.userId))[0]?.amount);
  });

  test("payment_succeeded: the renewal's amount and day, the end of the new period, and its receipt", async () => {
    const renewal = (await paymentsOf(story.world, story.renews.userId)).find(
      (row) => row.kind === "renewal",
    ) as Payment;
    expect(renewal.currency).toBe(story.currency);
    expect(renewal.amount).toBeGreaterThanOrEqual(100_000); // a year's price: thousands to group
    const receiptUrl = `${story.world.context.config.publicUrl}/api/profile/payments/${renewal.id}/receipt`;
    const mail = onlyOfKind(story, story.renews, "payment_succeeded");
    expectStates(story, mail, {
      amounts: [renewal.amount],
      dates: [renewal.updated_at, story.afterRenewal.end_date],
      also: [receiptUrl],
    });
    expect(mail?.html).toContain(`href="${receiptUrl}"`);
    // The link as the mail gives it, followed as written.
    const receipt = await story.world.app.handle(
      request(new URL(receiptUrl).pathname, { headers: { cookie: story.renews.cookie } }),
    );
    expect(receipt.status).toBe(200);
  });

  test("payment_failed: each attempt's amount and day, the next retry, and until when access lasts", async () => {
    const attempts = (await paymentsOf(story.world, story.declined.userId)).filter(
      (row) => row.kind === "renewal",
    );
    expect(attempts.map((row) => row.status)).toEqual(["declined", "declined", "declined"]);
    const failed = ofKind(story, story.declined, "payment_failed");
    expect(failed).toHaveLength(3);
    // The period was due at the end of the trial; dunning keeps access for 3 days after (DESIGN §6).
    const dueAt = story.afterTrial.get(story.declined.userId)?.end_date as number;
    const accessUntil = dueAt + 3 * dayMs;
    for (const [index, attempt] of attempts.entries()) {
      const after = story.afterEachDecline[index] as Subscription;
      const isLast = index === attempts.length - 1;
      expectStates(story, failed[index], {
        amounts: [attempt.amount],
        dates: [attempt.updated_at, ...(isLast ? [] : [after.next_charge_at as number, accessUntil])],
      });
      if (!isLast) expect(after.next_charge_at).toBe(dueAt + (index === 0 ? 1 : 3) * dayMs);
    }
  });

  test("subscription_canceled: access until the end of the paid period", () => {
    expect(story.afterCancel.status).toBe("CANCELED");
    expectStates(story, onlyOfKind(story, story.cancels, "subscription_canceled"), {
      dates: [story.afterCancel.end_date],
    });
  });

  test("card_removed: which card, and access until the end of the paid period", () => {
    expect(story.afterCardRemoval.end_date).toBe(story.afterTrial.get(story.removesCard.userId)?.end_date);
    expectStates(story, onlyOfKind(story, story.removesCard, "card_removed"), {
      dates: [story.afterCardRemoval.end_date],
      also: [`•••• ${cards.success.replaceAll(" ", "").slice(-4)}`],
    });
  });

  test("subscription_ended: the day access ended, by the period running out or by dunning", async () => {
    // Without a card, the period ended when it was paid until.
    const withoutCard = await subscriptionOf(story.world, story.removesCard.userId);
    expect(withoutCard.status).toBe("EXPIRED");
    expect(withoutCard.end_date).toBe(story.afterCardRemoval.end_date);
    expectStates(story, onlyOfKind(story, story.removesCard, "subscription_ended"), {
      dates: [withoutCard.end_date],
    });
    // Dunning kept access after the paid period, up to the last declined attempt: that is when it ended.
    expect((await subscriptionOf(story.world, story.declined.userId)).status).toBe("EXPIRED");
    const lastAttempt = (await paymentsOf(story.world, story.declined.userId)).at(-1) as Payment;
    expect(lastAttempt.status).toBe("declined");
    expectStates(story, onlyOfKind(story, story.declined, "subscription_ended"), {
      dates: [lastAttempt.updated_at],
    });
  });

  test("refund_made: the total that went back and its day", async () => {
    const refunded = (await paymentsOf(story.world, story.renews.userId)).filter(
      (row) => row.refunded_amount > 0,
    );
    expect(refunded.map((row) => row.kind)).toEqual(["renewal"]);
    const total = refunded.reduce((sum, row) => sum + row.refunded_amount, 0);
    expect(total).toBe(refunded[0]?.amount);
    expectStates(story, onlyOfKind(story, story.renews, "refund_made"), {
      amounts: [total],
      dates: [refunded[0]?.refunded_at as number],
    });
  });
});
