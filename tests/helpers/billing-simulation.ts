import { treaty } from "@elysiajs/eden";
import { approvingCards } from "../../bff/adapters/sandbox/cards";
import type { App } from "../../bff/app";
import { leaseMs } from "../../bff/jobs/renewal-lease";
import type { PaymentMethod, PaymentProvider } from "../../core/payment-methods";
import type { Database } from "../../db/database";
import { type Api, dataOf, identityOf, sessionOf } from "./api";
import { type Card, type FirstOrder, payFirstOrder } from "./billing-simulation/first-payment";
import { reconcile } from "./billing-simulation/reconcile";
import {
  everyRoute,
  firstProviderOn,
  isHealthy,
  putRoutes,
  type Route,
  routeOf,
} from "./billing-simulation/routes";
import { registerBody } from "./customers";
import { finishSignIn } from "./operators";
import type { SbpAccount } from "./sbp";
import { prng } from "./seeded-random";

/**
 * The billing simulation of DESIGN §13, shared by tests/bff/subscriptions/billing-simulation.test.ts
 * (hundreds of customers, in-process) and bench/billing-simulation.ts (10,000 customers,
 * a real server process). Customers act only through the public and demo HTTP API; the
 * database is only read, to see what the server did. Every renewal attempt is checked
 * against an independent model of the money rules written here, never the server's
 * pricing code, so a pricing bug cannot check itself.
 */

/** Sends a request (built on http://localhost) to the server under test. */
export type Send = (request: Request) => Promise<Response>;

export type SimulationOptions = {
  send: Send;
  /** The server's database, read only here: statuses, payments. */
  database: Database;
  /** Creates an administrator (username, password) the simulation signs in as. */
  createAdmin: () => Promise<{ username: string; password: string }>;
  /** The server's PUBLIC_URL: the origin of the administrator's (software) passkey. */
  publicUrl?: string;
  customers: number;
  months: number;
  seed: number;
  /** Told the day of each step (from the start), e.g. to take the mail server down for a while. */
  onDay?: (day: number) => void | Promise<void>;
  /** Requests in flight at once when many customers act in the same step. */
  concurrency?: number;
  /**
   * Waits until the renewal passes' leases taken during the outage have lapsed (30 s of real
   * time), so that the first pass after it settles what the outage left unanswered. The
   * outage lasts days of the test clock but a fraction of a second of real time; a test that
   * can move the lease clock does so instead of waiting.
   */
  waitForLeases?: () => Promise<void>;
  /** The provider that is down, and from which day of the story to which (the end not included). */
  outage?: { provider: PaymentProvider; fromDay: number; toDay: number };
  log?: (line: string) => void;
};

export type SimulationReport = {
  customers: number;
  paying: number;
  /** Customers past the sandbox's trial cards (13,200): refused at Check, never paying. */
  unpaidNoCard: number;
  steps: number;
  renewalAttempts: number;
  free: number;
  declinedRenewals: number;
  devices: number;
  cancels: number;
  resumes: number;
  cardRemovals: number;
  refunds: number;
  promosApplied: number;
  invitations: number;
  ledgerTransactions: number;
  /** Pre-charge notices queued (DESIGN §13(a)). */
  notices: number;
  /** The most renewals due in one pass (over 500: more than one claim batch). */
  largestPass: number;
  /** Notices that went out over an hour after they were queued (the mail server was down). */
  noticesDelayed: number;
  /** New notices queued by device slots bought after their renewal's notice (DESIGN §13(a)). */
  slotNotices: number;
  /** First payments by provider and method ("cloudpayments/card", "yookassa/sbp", …). */
  firstPayments: Record<Route, number>;
  /** Completed renewal charges by provider and method. */
  renewals: Record<Route, number>;
  /** Times the administrator reordered the payment routes. */
  routeChanges: number;
  /** SBP autopay renewals answered pending, counted neither paid nor declined by the pass, then settled by Pay or Fail. */
  pendingSettled: number;
  /** Of those, seen pending after their pass (the banks' decisions held) with the period not yet extended. */
  pendingSeen: number;
  /** SBP autopay bindings the payer's bank revoked at a renewal (6001): renewals stopped, access to the period's end. */
  sbpRevoked: number;
  /** Renewal attempts sent while their provider was down (no answer: pending until looked up). */
  outageRenewals: number;
  /** Of the periods those attempts were for, charged exactly once after the provider came back. */
  outageRecharged: number;
  /** New purchases during the outage that the server sent to the other provider (routes put the one down first). */
  failoverPurchases: number;
  /** First payments refused by the provider that was down (503) and paid on a later day. */
  deferredPurchases: number;
  /** YooKassa ledger payments reconciled. */
  yooKassaPayments: number;
  /** First orders opened and never paid (met the outage). */
  abandonedOrders: number;
  problems: string[];
};

const dayMs = 86_400_000;
const prices = { 1: 15_000, 3: 40_000, 6: 60_000, 12: 108_000 } as const;
const devicePerMonth = 5_000;
const trialAmount = 100;
/** The renewal pass's claim batch (bff/jobs/renewals.ts `defaultBatchSize`). */
const claimBatch = 500;
type Tariff = keyof typeof prices;
const tariffs: Tariff[] = [1, 3, 6, 12];

const cardNumbers = {
  success: "4242424242424242",
  declined: "4012888888881881",
  firstThenDeclined: "4111111111111111",
  hardDeclineLater: "4000000000000069",
} as const;

/**
 * The rule of DESIGN §5/§13, in minor units: half up to whole currency units. Each counting
 * invitee gives 25% for the months of the period its own paid period covers (its tariff's
 * months, at most the period's): 25% × min(tariff, invitee's months) / tariff.
 */
export function expectedRenewal(
  tariff: Tariff,
  extraDevices: number,
  promoPercent: number,
  countingInviteeMonths: readonly number[],
) {
  const list = prices[tariff] + extraDevices * devicePerMonth * tariff;
  // Counted in 1/(400 × tariff) parts of the price, so that the sum is exact: an invitee's
  // month is 25% / tariff = 100 parts, the promo's p% is 4 × tariff × p parts.
  const whole = 400 * tariff;
  const referral = countingInviteeMonths.reduce((sum, months) => sum + 100 * Math.min(tariff, months), 0);
  const off = Math.min(whole, 4 * tariff * promoPercent + Math.min(whole, referral));
  // Integer arithmetic: list × (whole − off) is exact, so "half up" is decided exactly.
  const scaled = list * (whole - off); // minor units × whole
  return Math.floor((scaled + 50 * whole) / (100 * whole)) * 100;
}

const fingerprint = (card: Card) => `${card.number}|${card.expiry}`;

type Customer = {
  index: number;
  email: string;
  uid: string;
  cookie: string;
  cookieAt: number;
  userId: number;
  tariff: Tariff;
  trialDays: number;
  joinDay: number;
  inviter: number | undefined;
  /** Promo percent and last valid day (YYYY-MM-DD) on the subscription. */
  promo: { percent: number; lastDay: string } | undefined;
  /** Cards this customer has paid with (fingerprints). */
  cards: Set<string>;
  card: Card;
  devices: number;
  cardRemoved: boolean;
  refunded: boolean;
  paid: boolean;
  /** Where the first payment was taken: every renewal must be charged there. */
  provider: PaymentProvider;
  method: PaymentMethod;
  /** How the payer's bank treats later charges of an SBP autopay binding. */
  sbpAccount: SbpAccount;
  /** Turned auto-renewal off at some point (a renewal may then never come). */
  hasCanceled: boolean;
};

type Promo = { code: string; percent: number; lastDay: string };

type Standing = {
  subscriptionId: number;
  status: string;
  nextChargeAt: number | null;
  endDate: number | null;
  hasCard: boolean;
  hasPaidCharge: boolean;
  /** The day of the month (UTC) of the subscription's billing anchor, its periods' day. */
  anchorDay: number | null;
};

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

export async function runBillingSimulation(options: SimulationOptions): Promise<SimulationReport> {
  const { send, database } = options;
  const random = prng(options.seed);
  // How each customer pays (method, the bank's later answers) has draws of its own, so the
  // rest of the story (tariffs, trials, promos, actions) is what the same seed always made.
  const payRandom = prng(options.seed + 1_000_003);
  const concurrency = options.concurrency ?? 1;
  const log = options.log ?? (() => {});
  const problems: string[] = [];
  const problem = (text: string) => {
    if (problems.length < 200) problems.push(text);
  };
  const report: SimulationReport = {
    customers: options.customers,
    paying: 0,
    unpaidNoCard: 0,
    steps: 0,
    renewalAttempts: 0,
    free: 0,
    declinedRenewals: 0,
    devices: 0,
    cancels: 0,
    resumes: 0,
    cardRemovals: 0,
    refunds: 0,
    promosApplied: 0,
    invitations: 0,
    ledgerTransactions: 0,
    notices: 0,
    largestPass: 0,
    noticesDelayed: 0,
    slotNotices: 0,
    firstPayments: Object.fromEntries(everyRoute.map((route) => [route, 0])) as Record<Route, number>,
    renewals: Object.fromEntries(everyRoute.map((route) => [route, 0])) as Record<Route, number>,
    routeChanges: 0,
    pendingSettled: 0,
    pendingSeen: 0,
    sbpRevoked: 0,
    outageRenewals: 0,
    outageRecharged: 0,
    failoverPurchases: 0,
    deferredPurchases: 0,
    yooKassaPayments: 0,
    abandonedOrders: 0,
    problems,
  };
  const outage = options.outage ?? { provider: "cloudpayments", fromDay: 44, toDay: 49 };
  /** The story's day, for the failover check (which provider the routes put first). */
  let lastDay = 0;
  /** Whether the outage's provider is down now, and whether the server has seen it fail (skips it). */
  const down = { isDown: false, isSeenDown: false };

  const api = clientOver(send);

  let now = Date.parse((await dataOf(api.dev.clock.post({ advanceDays: 0 }))).now);
  const advance = async (days: number) => {
    now = Date.parse((await dataOf(api.dev.clock.post({ advanceDays: days }))).now);
  };

  // --- staff: an administrator creates the promo codes and makes the refunds ---------
  const admin = await options.createAdmin();
  let staff:
    | { headers: Record<string, string>; at: number; refreshToken: string; signedInAt: number }
    | undefined;
  const staffHeaders = async () => {
    // Access tokens last 15 minutes of the (moving) test clock: refreshed when stale, as the
    // panel does, while the sign-in's refresh tokens last (30 days); else a new sign-in,
    // whose Argon2id check is the dearer call.
    if (staff && now - staff.at < 10 * 60_000) return staff.headers;
    if (staff && now - staff.signedInAt < 29 * dayMs) {
      const refreshed = await api.auth.refreshToken.post({ refreshToken: staff.refreshToken });
      if (refreshed.data) {
        staff = { ...staff, headers: { authorization: `Bearer ${refreshed.data.accessToken}` }, at: now };
        staff.refreshToken = refreshed.data.refreshToken;
        return staff.headers;
      }
    }
    const captcha = await solveCaptcha(api);
    const answer = await dataOf(
      api.auth.login.post({ username: admin.username, password: admin.password, captcha }),
    );
    const { accessToken, refreshToken } = await finishSignIn(
      api,
      options.publicUrl ?? "http://localhost:3000",
      admin.username,
      answer,
    );
    staff = { headers: { authorization: `Bearer ${accessToken}` }, at: now, refreshToken, signedInAt: now };
    return staff.headers;
  };
  const promos: Promo[] = [];
  const createPromos = async (count: number) => {
    for (let index = 0; index < count; index++) {
      const months = random.int(1, 12);
      const lastDay = isoDay(addMonthsUtc(Date.parse(`${isoDay(now)}T00:00:00Z`), months));
      const percent = random.pick([20, 25, 30, 35, 40, 45, 50]);
      const code = `SIM${options.seed}X${promos.length}M${months}`;
      await dataOf(
        api.panel.promos.generatePromo.post(
          {
            promoCode: code,
            promoType: "DISCOUNT",
            isAvailable: true,
            discount: percent / 100,
            expirationDate: lastDay,
          },
          { headers: await staffHeaders() },
        ),
      );
      promos.push({ code, percent, lastDay });
    }
  };
  const usablePromo = () => {
    const today = isoDay(now);
    const usable = promos.filter((promo) => promo.lastDay >= today);
    return usable.length > 0 ? random.pick(usable) : undefined;
  };

  // --- customers --------------------------------------------------------------------
  const customers: Customer[] = [];
  // Who invited whom, so counting an inviter's invitees does not scan every customer.
  const inviteesOf = new Map<number, Customer[]>();
  const payers: Customer[] = [];
  // Distinct (number, expiry) pairs: a card's trial is once (DESIGN §13), and a number has
  // 1,200 MM/YY expiries, so approving numbers alternate and expiries count up.
  const expiryOf = (slot: number) =>
    `${String((slot % 12) + 1).padStart(2, "0")}/${String(Math.floor(slot / 12) % 100).padStart(2, "0")}`;
  // The sandbox approves with 11 numbers (and two more approve only the first payment), each
  // with 1,200 expiries: 15,600 cards that can take a trial. Past that, a customer's trial is
  // refused at Check (the card had one) and the customer stays unpaid, in `unpaidNoCard`.
  const nextSlot = new Map<string, number>();
  const fresh = (number: string): Card | undefined => {
    const slot = nextSlot.get(number) ?? 0;
    if (slot >= 1200) return undefined;
    nextSlot.set(number, slot + 1);
    return { number, expiry: expiryOf(slot) };
  };
  const cardFor = (index: number): Card => {
    const roll = random.next();
    const preferred =
      roll < 0.08
        ? cardNumbers.firstThenDeclined
        : roll < 0.13
          ? cardNumbers.hardDeclineLater
          : (approvingCards[index % approvingCards.length] ?? cardNumbers.success);
    const order = [preferred, ...approvingCards, cardNumbers.firstThenDeclined, cardNumbers.hardDeclineLater];
    for (const number of order) {
      const card = fresh(number);
      if (card) return card;
    }
    return { number: cardNumbers.success, expiry: expiryOf(index % 1200), reused: true };
  };
  const signInAgain = async (customer: Customer, referralCode = "") => {
    const token = await dataOf(api.dev.idp.token.post({ email: customer.email, provider: "google.com" }));
    const registered = await api.register.post(
      registerBody(token, { referralCode, period: customer.trialDays, tariff: customer.tariff }),
    );
    if (registered.status !== 200) throw new Error(`register ${customer.email}: ${registered.status}`);
    const cookie = registered.response.headers
      .getSetCookie()
      .find((line) => line.startsWith("kannt_session="));
    customer.uid = token.uid;
    customer.cookie = cookie?.split(";")[0] ?? "";
    customer.cookieAt = now;
  };
  /** A cabinet call of the customer's, with its identity and session. */
  const asCustomer = async <Answer>(
    customer: Customer,
    call: (identity: ReturnType<typeof identityOf>, session: ReturnType<typeof sessionOf>) => Promise<Answer>,
  ) => {
    // Sessions last 30 days of the test clock; the customer signs in again, as in life.
    if (now - customer.cookieAt > 20 * dayMs) await signInAgain(customer);
    return call(identityOf(customer), sessionOf(customer));
  };
  /** The first order, by the customer's method (SBP with autopay allowed); undefined when its provider was down (503). */
  const order = async (customer: Customer): Promise<FirstOrder | undefined> => {
    const answer = await asCustomer(customer, (identity, session) =>
      api.shop.order.post(
        {
          ...identity,
          tariff: customer.tariff,
          period: customer.trialDays,
          method: customer.method,
          saveMethod: customer.method === "sbp",
        },
        session,
      ),
    );
    if (answer.status === 503 && down.isDown) return undefined;
    if (answer.status !== 200 || !answer.data)
      throw new Error(`order of ${customer.email}: ${answer.status} ${JSON.stringify(answer.error?.value)}`);
    const placed = answer.data;
    const provider = placed.provider ?? "cloudpayments";
    // Failover (DESIGN §6): once the server has seen the provider fail, no purchase goes there.
    if (down.isSeenDown && provider === outage.provider)
      problem(`${customer.email}: a new purchase sent to ${provider}, which the server saw down`);
    if (down.isDown && provider !== outage.provider && firstProviderOn(lastDay) === outage.provider)
      report.failoverPurchases++;
    return placed;
  };
  const pay = async (invoiceId: string, card: Card) =>
    dataOf(api.dev.sandbox.pay.post({ invoiceId, cardNumber: card.number, expiry: card.expiry }));
  const referralCodeOf = async (customer: Customer) =>
    (
      await dataOf(
        asCustomer(customer, (identity, session) => api.profile.getReferralCode.post(identity, session)),
      )
    ).referralCode;

  const join = async (index: number, joinDay: number) => {
    const method: PaymentMethod = payRandom.chance(0.28) ? "sbp" : "card";
    const bankRoll = payRandom.next();
    // Drawn for every customer, so the story's other draws stay those of the same seed.
    const card = cardFor(index);
    const customer: Customer = {
      index,
      email: `sim${options.seed}-${index}@example.com`,
      uid: "",
      cookie: "",
      cookieAt: 0,
      userId: 0,
      tariff: random.pick(tariffs),
      trialDays: random.int(1, 30),
      joinDay,
      inviter: undefined,
      promo: undefined,
      cards: new Set(),
      // SBP pays from a bank account: no card.
      card: method === "card" ? card : { number: "", expiry: "" },
      devices: 0,
      cardRemoved: false,
      refunded: false,
      paid: false,
      provider: "cloudpayments",
      method,
      sbpAccount: bankRoll < 0.1 ? "revoked" : bankRoll < 0.2 ? "declinesLater" : "ok",
      hasCanceled: false,
    };
    customers[index] = customer;
    const earlier = payers;
    let code = "";
    let signUpPromo: Promo | undefined;
    const roll = random.next();
    if (roll < 0.3 && earlier.length > 0) {
      const inviter = random.pick(earlier);
      code = await referralCodeOf(inviter);
      customer.inviter = inviter.index;
      inviteesOf.set(inviter.index, [...(inviteesOf.get(inviter.index) ?? []), customer]);
      report.invitations++;
    } else if (roll < 0.45) {
      signUpPromo = usablePromo();
      code = signUpPromo?.code ?? "";
    }
    const tryInviterCard = customer.inviter !== undefined && random.chance(0.15);
    const declinedFirst = random.chance(0.05);
    const laterPromo = signUpPromo === undefined && random.chance(0.1) ? usablePromo() : undefined;
    await signInAgain(customer, code);
    if (signUpPromo) applyPromoToModel(customer, signUpPromo);
    if (laterPromo) await applyPromo(customer, laterPromo);
    await payFirst(customer, { tryInviterCard, declinedFirst });
  };
  /** Customers whose first payment met the provider that was down: they pay on a later day. */
  const awaitingPayment: Customer[] = [];
  /**
   * The first order and its payment, wherever the routes send it. The trial-rule probes (the
   * inviter's card, the declining card) are made where the widget's Check can refuse them:
   * an order that went to CloudPayments by card.
   */
  const payFirst = async (
    customer: Customer,
    probes: { tryInviterCard: boolean; declinedFirst: boolean },
  ) => {
    let widget = await order(customer);
    const isWidget = (placed: FirstOrder | undefined): placed is FirstOrder =>
      placed !== undefined && placed.sbp === undefined && placed.confirmationUrl === undefined;
    if (isWidget(widget) && probes.tryInviterCard && customer.inviter !== undefined) {
      // The inviter's card already had its trial: Check refuses the 1-unit payment (code 13).
      const inviterCard = customers[customer.inviter]?.card;
      if (inviterCard?.number) {
        const paid = await pay(widget.invoiceId, inviterCard);
        if (paid.success) problem(`${customer.email}: trial paid again with the inviter's card`);
        widget = await order(customer);
      }
    }
    if (isWidget(widget) && probes.declinedFirst) {
      const paid = await pay(widget.invoiceId, { number: cardNumbers.declined, expiry: "01/29" });
      if (paid.success) problem(`${customer.email}: the declined test card paid`);
      widget = await order(customer);
    }
    const paid = widget
      ? await payFirstOrder(api, widget, { card: customer.card, account: customer.sbpAccount })
      : { isPaid: false, isProviderDown: true, answer: "order refused: provider down" };
    if (paid.isProviderDown) {
      if (!down.isDown) problem(`${customer.email}: first payment answered 503 with no provider down`);
      awaitingPayment.push(customer);
      return;
    }
    if (!widget) return;
    customer.userId = Number(widget.accountId.replace("customer-", ""));
    byUser.set(customer.userId, customer);
    customer.provider = widget.provider ?? "cloudpayments";
    if (widget.amount * 100 !== trialAmount)
      problem(`${customer.email}: first order ${widget.amount}, not the trial`);
    const isPoolCard = customer.card.reused !== true;
    if (!paid.isPaid && isPoolCard)
      problem(`${customer.email}: first payment failed (${JSON.stringify(paid.answer)})`);
    if (!paid.isPaid && !isPoolCard) {
      if (paid.checkCode !== 13) problem(`${customer.email}: reused card's trial not refused at Check`);
      report.unpaidNoCard++;
    }
    customer.paid = paid.isPaid;
    if (customer.method === "card") customer.cards.add(fingerprint(customer.card));
    if (paid.isPaid) {
      report.paying++;
      report.firstPayments[routeOf(customer.provider, customer.method)]++;
      payers.push(customer);
    }
  };
  const applyPromoToModel = (customer: Customer, promo: Promo) => {
    report.promosApplied++;
    // The server keeps the higher of two promos on a subscription (spec §5: once per code).
    if (!customer.promo || promo.percent > customer.promo.percent)
      customer.promo = { percent: promo.percent, lastDay: promo.lastDay };
  };
  const applyPromo = async (customer: Customer, promo: Promo) => {
    const answer = await asCustomer(customer, (identity, session) =>
      api.shop.applyPromo.post({ ...identity, promoCode: promo.code }, session),
    );
    if (answer.status === 200) applyPromoToModel(customer, promo);
    else if (answer.status !== 409) problem(`${customer.email}: applyPromo ${promo.code} → ${answer.status}`);
  };

  // --- reading what the server did ---------------------------------------------------
  /** Every account's newest subscription, or only those of `userIds`. */
  const standings = async (userIds?: number[]) => {
    if (userIds?.length === 0) return new Map<number, Standing>();
    const only = userIds ? `AND s.user_id IN (${userIds.map(Number).join(", ")})` : "";
    // EXISTS is 1 or 0 on both engines (PostgreSQL's boolean is read as 1/0).
    const rows = await database.all<{
      id: number;
      user_id: number;
      status: string;
      next_charge_at: number | null;
      end_date: number | null;
      card_token: string | null;
      paid: number;
      billing_anchor: number | null;
    }>(
      `SELECT s.id, s.user_id, s.status, s.next_charge_at, s.end_date, s.card_token, s.billing_anchor,
         EXISTS (SELECT 1 FROM payments p WHERE p.user_id = s.user_id AND p.status = 'completed'
           AND p.kind IN ('first', 'renewal') AND p.amount > ${trialAmount - 1} AND NOT (p.kind = 'first' AND p.amount = ${trialAmount})) AS paid
       FROM subscriptions s WHERE s.id = (SELECT MAX(id) FROM subscriptions t WHERE t.user_id = s.user_id) ${only}`,
    );
    const map = new Map<number, Standing>();
    for (const row of rows)
      map.set(row.user_id, {
        subscriptionId: row.id,
        status: row.status,
        nextChargeAt: row.next_charge_at,
        endDate: row.end_date,
        hasCard: row.card_token !== null,
        hasPaidCharge: row.paid === 1,
        anchorDay: row.billing_anchor === null ? null : new Date(Number(row.billing_anchor)).getUTCDate(),
      });
    return map;
  };
  const byUser = new Map<number, Customer>();
  /** The months each counting invitee's own paid period covers (its tariff). */
  const counts = (customer: Customer, standing: Map<number, Standing>) => {
    const months: number[] = [];
    for (const invitee of inviteesOf.get(customer.index) ?? []) {
      const state = standing.get(invitee.userId);
      // DESIGN §13: ACTIVE, after a charge other than the trial, never with the inviter's card.
      const usesInviterCard = [...invitee.cards].some((card) => customer.cards.has(card));
      if (state?.status === "ACTIVE" && state.hasPaidCharge && !usesInviterCard) months.push(invitee.tariff);
    }
    return months;
  };
  /**
   * A pass claims its due renewals 500 at a time, longest due first, and prices each batch
   * from the accounts as they stand when the batch is claimed (bff/jobs/renewals.ts): an
   * invitee whose own renewal came in an earlier batch of the pass counts as that batch
   * left it, any other as the pass found it.
   */
  const countsInBatch = (
    customer: Customer,
    batchOf: Map<number, number>,
    before: Map<number, Standing>,
    after: Map<number, Standing>,
  ) => {
    const batch = batchOf.get(customer.userId) ?? 0;
    const standing = new Map<number, Standing>();
    for (const invitee of inviteesOf.get(customer.index) ?? []) {
      const settledEarlier = (batchOf.get(invitee.userId) ?? Number.POSITIVE_INFINITY) < batch;
      const state = (settledEarlier ? after : before).get(invitee.userId);
      if (state) standing.set(invitee.userId, state);
    }
    return counts(customer, standing);
  };
  let lastPaymentId = 0;
  let lastNoticeId = 0;
  /** The amount each period's latest notice should have stated, by the model. */
  const noticed = new Map<string, number>();
  /** Notices queued by a device slot purchase (checked then, not by the renewal pass). */
  const slotNotices = new Set<number>();

  type NoticeRow = { id: number; amount: number; period_index: number };
  const noticesOfSubscription = (subscriptionId: number, afterId: number) =>
    database.all<NoticeRow>(
      "SELECT id, amount, period_index FROM renewal_notices WHERE subscription_id = ? AND id > ? ORDER BY id",
      [subscriptionId, afterId],
    );
  /**
   * DESIGN §13(a): a slot bought after the next period's notice raises that renewal above
   * what the notice stated, so the period's one current notice states the rule's amount
   * now (the renewal then charges it, never more): the latest notice restated when it had
   * not gone out, else one new notice (held a few minutes, so the next slot restates it);
   * without a notice, or when the amount did not rise, nothing changes.
   */
  const checkSlotNotice = async (
    customer: Customer,
    subscriptionId: number,
    before: NoticeRow | undefined,
  ) => {
    const subscription = await database.get<{ next_period_index: number }>(
      "SELECT next_period_index FROM subscriptions WHERE id = ?",
      [subscriptionId],
    );
    const periodIndex = subscription?.next_period_index ?? -1;
    const invitees = (inviteesOf.get(customer.index) ?? []).map((invitee) => invitee.userId);
    const promoPercent = customer.promo && customer.promo.lastDay >= isoDay(now) ? customer.promo.percent : 0;
    const expected = expectedRenewal(
      customer.tariff,
      customer.devices,
      promoPercent,
      counts(customer, await standings(invitees)),
    );
    const queued = await noticesOfSubscription(subscriptionId, before?.id ?? 0);
    for (const notice of queued) slotNotices.add(notice.id);
    const stated = before?.period_index === periodIndex ? before.amount : undefined;
    const shouldNotice = stated !== undefined && expected > stated;
    const amounts = queued.map((notice) => notice.amount);
    // The notice the purchase found, as it stands after it (restated, or left as it was).
    const found = before
      ? (await noticesOfSubscription(subscriptionId, before.id - 1)).find((notice) => notice.id === before.id)
      : undefined;
    if (found) slotNotices.add(found.id);
    const current = queued.at(-1) ?? found;
    const isRight = shouldNotice
      ? amounts.length <= 1 && current?.amount === expected
      : amounts.length === 0 && found?.amount === before?.amount;
    if (!isRight)
      problem(
        `${customer.email}: slot bought after a notice of ${(stated ?? 0) / 100} queued notices [${amounts.map((amount) => amount / 100).join(", ")}] and left it at ${(found?.amount ?? 0) / 100}, rule says ${shouldNotice ? expected / 100 : "none"}`,
      );
    if (shouldNotice) noticed.set(`${subscriptionId}/${periodIndex}`, expected);
    report.slotNotices += queued.length;
  };

  /** Renewal attempts the provider left unanswered while down: pending until a pass after it looks them up. */
  const unanswered = new Map<number, { subscriptionId: number; periodIndex: number }>();
  /** Their accounts: not due for a pass while the attempt is pending (no second charge), so not "missed". */
  const unansweredUsers = new Set<number>();
  /** The periods the outage's attempts were for, to be charged exactly once after it, and whose. */
  const outagePeriods = new Set<string>();
  const outageCustomers = new Map<string, Customer>();

  /**
   * A renewal goes where the saved method is held, whatever the routes say now and whatever
   * is down (DESIGN §6): the first payment's provider and method. An SBP charge was answered
   * pending and is decided by now (the banks were waited for); one the outage left
   * unanswered stays pending. A binding the payer's bank revoked (6001) stops renewals and
   * keeps access to the period's end, with no dunning.
   */
  const checkRenewalRoute = (
    customer: Customer,
    attempt: {
      id: number;
      user_id: number;
      status: string;
      amount: number;
      provider: PaymentProvider;
      method: PaymentMethod;
      subscription_id: number;
      period_index: number;
    },
    before: Map<number, Standing>,
    after: Map<number, Standing>,
    isOutagePass: boolean,
  ) => {
    if (attempt.provider !== customer.provider || attempt.method !== customer.method)
      problem(
        `${customer.email}: renewal ${attempt.id} charged by ${attempt.provider}/${attempt.method}, the method is held by ${customer.provider}/${customer.method}`,
      );
    if (attempt.amount === 0) return;
    if (isOutagePass && attempt.provider === outage.provider) {
      report.outageRenewals++;
      if (attempt.status !== "pending")
        problem(`${customer.email}: renewal ${attempt.id} ${attempt.status} with its provider down`);
      unanswered.set(attempt.id, {
        subscriptionId: attempt.subscription_id,
        periodIndex: attempt.period_index,
      });
      unansweredUsers.add(attempt.user_id);
      outagePeriods.add(`${attempt.subscription_id}/${attempt.period_index}`);
      outageCustomers.set(`${attempt.subscription_id}/${attempt.period_index}`, customer);
      return;
    }
    if (attempt.status === "pending") {
      problem(`${customer.email}: renewal ${attempt.id} still pending after the banks decided`);
      return;
    }
    if (attempt.method === "sbp") report.pendingSettled++;
    if (attempt.method === "sbp" && attempt.status === "declined" && customer.sbpAccount === "revoked") {
      const was = before.get(attempt.user_id);
      const state = after.get(attempt.user_id);
      report.sbpRevoked++;
      customer.cardRemoved = true;
      if (state?.hasCard !== false) problem(`${customer.email}: SBP binding revoked, still saved`);
      if (state?.endDate !== was?.endDate || (state?.status === "EXPIRED" && (state.endDate ?? 0) > now))
        problem(
          `${customer.email}: SBP binding revoked: access ${state?.status} to ${isoDay(state?.endDate ?? 0)}, the period ended ${isoDay(was?.endDate ?? 0)}`,
        );
    }
  };

  /**
   * After the outage: what it left unanswered was looked up at its provider (nothing was
   * done there) and settled as never sent, never charged blindly; the periods are charged
   * anew, once (counted at the end, when every retry has had its day).
   */
  const checkUnansweredSettled = async () => {
    if (unanswered.size === 0 || down.isDown) return;
    const ids = [...unanswered.keys()];
    const rows = await database.all<{
      id: number;
      user_id: number;
      status: string;
      transaction_id: string | null;
      invoice_id: string;
    }>(
      `SELECT id, user_id, status, transaction_id, invoice_id FROM payments WHERE id IN (${ids.map(Number).join(", ")})`,
    );
    unansweredUsers.clear();
    for (const row of rows) {
      if (row.status === "pending") {
        unansweredUsers.add(row.user_id); // its lease has not lapsed yet: a later pass settles it
        continue;
      }
      if (row.status !== "declined" || row.transaction_id !== null)
        problem(
          `${row.invoice_id}: left unanswered by the outage, then ${row.status} (${row.transaction_id})`,
        );
      unanswered.delete(row.id);
    }
  };

  const runBilling = async () => {
    const before = await standings();
    // The pass's claim batches: its due renewals in the server's order, 500 at a time.
    const batchOf = new Map<number, number>();
    [...before.entries()]
      .filter(
        ([, state]) => state.status === "ACTIVE" && state.nextChargeAt !== null && state.nextChargeAt <= now,
      )
      .sort(
        ([, a], [, b]) =>
          (a.nextChargeAt ?? 0) - (b.nextChargeAt ?? 0) || a.subscriptionId - b.subscriptionId,
      )
      .forEach(([userId], position) => {
        batchOf.set(userId, Math.floor(position / claimBatch));
      });
    report.largestPass = Math.max(report.largestPass, batchOf.size);
    // SBP autopay charges are answered pending and decided by the payer's bank after the
    // answer (DESIGN §6). The banks' decisions are held through the pass, so every such
    // charge is seen undecided: pending, its period not extended, whatever the pass did.
    await dataOf(api.dev.sandbox.sbp.hold.post({ isHeld: true }));
    const run = await dataOf(api.dev.billing.run.post());
    const isOutagePass = down.isDown;
    const undecided = await database.all<{ user_id: number; end_date: number | null; status: string }>(
      `SELECT p.user_id, p.status, s.end_date FROM payments p JOIN subscriptions s ON s.id = p.subscription_id
       WHERE p.id > ? AND p.kind = 'renewal' AND p.amount > 0 AND p.method = 'sbp' AND p.provider <> ?`,
      [lastPaymentId, isOutagePass ? outage.provider : ""],
    );
    for (const charge of undecided) {
      report.pendingSeen++;
      if (charge.status !== "pending")
        problem(`account ${charge.user_id}: an SBP charge ${charge.status} before its bank decided`);
      if (charge.end_date !== (before.get(charge.user_id)?.endDate ?? null))
        problem(`account ${charge.user_id}: period extended by an SBP charge still pending`);
    }
    await dataOf(api.dev.sandbox.sbp.hold.post({ isHeld: false }));
    await dataOf(api.dev.sandbox.sbp.settled.get());
    const after = await standings();
    const attempts = await database.all<{
      id: number;
      user_id: number;
      amount: number;
      status: string;
      subscription_id: number;
      period_index: number;
      created_at: number;
      notice_sent_at: number | null;
      provider: PaymentProvider;
      method: PaymentMethod;
    }>(
      `SELECT p.id, p.user_id, p.amount, p.status, p.subscription_id, p.period_index, p.created_at, p.provider, p.method,
         (SELECT m.sent_at FROM renewal_notices n JOIN mail_outbox m ON m.id = n.mail_id
           WHERE n.subscription_id = p.subscription_id AND n.period_index = p.period_index
           ORDER BY n.id DESC LIMIT 1) AS notice_sent_at
       FROM payments p WHERE p.id > ? AND p.kind = 'renewal' ORDER BY p.id`,
      [lastPaymentId],
    );
    const promoDay = isoDay(now);
    // The pre-charge notices this pass queued (DESIGN §13(a)): each states the rule's amount,
    // priced like a charge: from the accounts as the pass found them when it was due then
    // (queued in place of a charge), else as the pass left them (queued for the next days).
    // The accounts as the pass left them, which priced its later batches and its notices: an
    // SBP renewal was still pending then (its bank's decision held), its account as it was.
    const leftByPass = new Map(after);
    for (const attempt of attempts)
      if (attempt.method === "sbp" && attempt.amount > 0) {
        const was = before.get(attempt.user_id);
        if (was) leftByPass.set(attempt.user_id, was);
      }
    const notices = await database.all<{
      id: number;
      subscription_id: number;
      period_index: number;
      amount: number;
      user_id: number;
    }>(
      `SELECT n.id, n.subscription_id, n.period_index, n.amount, s.user_id FROM renewal_notices n
       JOIN subscriptions s ON s.id = n.subscription_id WHERE n.id > ? ORDER BY n.id`,
      [lastNoticeId],
    );
    for (const notice of notices) {
      lastNoticeId = notice.id;
      report.notices++;
      if (slotNotices.has(notice.id)) continue; // checked when the slot was bought
      const customer = byUser.get(notice.user_id);
      if (!customer) continue;
      const was = before.get(notice.user_id);
      const dueAtStart = was?.status === "ACTIVE" && was.nextChargeAt !== null && was.nextChargeAt <= now;
      const promoPercent = customer.promo && customer.promo.lastDay >= promoDay ? customer.promo.percent : 0;
      const expected = expectedRenewal(
        customer.tariff,
        customer.devices,
        promoPercent,
        dueAtStart ? countsInBatch(customer, batchOf, before, leftByPass) : counts(customer, leftByPass),
      );
      if (notice.amount !== expected)
        problem(
          `${customer.email}: notice ${notice.id} states ${notice.amount / 100}, rule says ${expected / 100}`,
        );
      noticed.set(`${notice.subscription_id}/${notice.period_index}`, expected);
    }
    // The pass's own answers (DESIGN §6): an SBP charge is pending there, never paid, and
    // a charge its provider left unanswered (down) is neither.
    const isAnswered = (attempt: (typeof attempts)[number]) =>
      attempt.amount > 0 && !(isOutagePass && attempt.provider === outage.provider);
    const sentBySbp = attempts.filter((attempt) => isAnswered(attempt) && attempt.method === "sbp").length;
    const paidByCard = attempts.filter(
      (attempt) => isAnswered(attempt) && attempt.method === "card" && attempt.status !== "declined",
    ).length;
    if (run.pending !== sentBySbp || run.completed > paidByCard)
      problem(
        `pass at ${isoDay(now)} answered ${run.completed} completed and ${run.pending} pending; ${paidByCard} card charges paid, ${sentBySbp} SBP charges sent`,
      );
    for (const attempt of attempts) {
      report.renewalAttempts++;
      const customer = byUser.get(attempt.user_id);
      if (!customer) {
        problem(`renewal ${attempt.id} of an unknown account ${attempt.user_id}`);
        continue;
      }
      const invitees = countsInBatch(customer, batchOf, before, leftByPass);
      const promoPercent = customer.promo && customer.promo.lastDay >= promoDay ? customer.promo.percent : 0;
      const rule = expectedRenewal(customer.tariff, customer.devices, promoPercent, invitees);
      // Never more than the period's notice stated (a free renewal needs none).
      const stated = noticed.get(`${attempt.subscription_id}/${attempt.period_index}`);
      const expected = stated === undefined ? rule : Math.min(rule, stated);
      if (attempt.amount > 0) {
        const sinceNotice =
          attempt.notice_sent_at === null ? null : attempt.created_at - attempt.notice_sent_at;
        if (sinceNotice === null || sinceNotice < dayMs || sinceNotice > 7 * dayMs)
          problem(
            `${customer.email}: renewal ${attempt.id} charged ${sinceNotice === null ? "without a sent notice" : `${(sinceNotice / dayMs).toFixed(2)} days after its notice`}`,
          );
      }
      if (attempt.amount !== expected)
        problem(
          `${customer.email} renewal ${attempt.id} on ${promoDay}: charged ${attempt.amount / 100}, rule says ${expected / 100} (tariff ${customer.tariff}, devices ${customer.devices}, promo ${promoPercent}%, invitees' months [${invitees.join(", ")}])`,
        );
      if (attempt.amount === 0) report.free++;
      if (attempt.status === "declined") report.declinedRenewals++;
      if (attempt.status === "completed" && attempt.amount > 0)
        report.renewals[routeOf(attempt.provider, attempt.method)]++;
      if (attempt.amount > 0 && customer.cardRemoved)
        problem(`${customer.email}: renewal ${attempt.id} charged after the card was removed`);
      checkRenewalRoute(customer, attempt, before, after, isOutagePass);
      // DESIGN §13: a renewed period ends its tariff's months on, on the anchor's day (the
      // last day of a shorter month), never drifting to the 28th.
      const was = before.get(attempt.user_id);
      const became = after.get(attempt.user_id);
      if (attempt.status === "completed" && was?.endDate && was.anchorDay !== null) {
        const due = addMonthsOnDayUtc(was.endDate, customer.tariff, was.anchorDay);
        if (became?.endDate !== due)
          problem(
            `${customer.email}: renewal ${attempt.id} moved the end from ${isoDay(was.endDate)} to ${isoDay(became?.endDate ?? 0)}, the anchor's day ${was.anchorDay} says ${isoDay(due)}`,
          );
      }
    }
    lastPaymentId = Math.max(
      lastPaymentId,
      (await database.get<{ id: number | null }>("SELECT MAX(id) AS id FROM payments"))?.id ?? 0,
    );
    await checkUnansweredSettled();
    // No missed charge: whatever was due is charged, in dunning (a later retry) or over.
    for (const [userId, state] of after) {
      // A retry is dated from the due date (dunning), so after a late pass the next retry
      // may already be due: fine when this pass made an attempt; the next pass makes it.
      const triedNow = attempts.some((attempt) => attempt.user_id === userId);
      if (
        state.status === "ACTIVE" &&
        !triedNow &&
        !unansweredUsers.has(userId) &&
        (state.nextChargeAt === null || state.nextChargeAt <= now)
      )
        problem(
          `account ${userId} ACTIVE and due ${state.nextChargeAt === null ? "never" : new Date(state.nextChargeAt).toISOString()} after a billing run at ${new Date(now).toISOString()} (${JSON.stringify(await database.all("SELECT kind, amount, status, invoice_id, created_at FROM payments WHERE user_id = ? ORDER BY id", [userId]))})`,
        );
      // Dunning keeps access for retries 1 and 3 days after the due date, and a charge whose
      // notice went out late moves by a day more; with passes up to three days apart, no
      // ACTIVE period outlives its end by two weeks.
      if (state.status === "ACTIVE" && state.endDate !== null && state.endDate + 14 * dayMs < now)
        problem(`account ${userId} ACTIVE ${((now - state.endDate) / dayMs).toFixed(1)} days past its end`);
    }
  };

  const inParallel = async <T>(items: T[], act: (item: T) => Promise<void>) => {
    for (let start = 0; start < items.length; start += concurrency)
      await Promise.all(items.slice(start, start + concurrency).map(act));
  };

  // --- customers' own actions --------------------------------------------------------
  const act = async (customer: Customer, standing: Standing | undefined) => {
    if (!standing || customer.refunded || !customer.paid) return;
    const roll = random.next();
    const live = standing.endDate !== null && standing.endDate > now;
    // While its provider is down, nothing that needs it is tried (a slot's charge, a refund):
    // the customer and the operator come back once it is up.
    const isProviderDown = down.isDown && customer.provider === outage.provider;
    if (standing.status === "ACTIVE" && roll < 0.004) {
      const answer = await asCustomer(customer, api.subscriptions.cancel.post);
      if (answer.status !== 200) problem(`${customer.email}: cancel → ${answer.status}`);
      else {
        report.cancels++;
        customer.hasCanceled = true;
      }
    } else if (standing.status === "CANCELED" && live && standing.hasCard && roll < 0.05) {
      const answer = await asCustomer(customer, api.subscriptions.resume.post);
      if (answer.status !== 200) problem(`${customer.email}: resume → ${answer.status}`);
      else report.resumes++;
    } else if (
      (standing.status === "ACTIVE" || standing.status === "CANCELED") &&
      standing.hasCard &&
      roll > 0.998
    ) {
      const answer = await asCustomer(customer, api.profile.removeCard.post);
      // A renewal the outage left unanswered is a charge in flight: the removal waits for it.
      const code = (answer.error?.value as { error?: { code?: string } } | undefined)?.error?.code;
      if (answer.status === 409 && code === "card_payment_pending" && unansweredUsers.has(customer.userId))
        return;
      if (answer.status !== 200) problem(`${customer.email}: removeCard → ${answer.status} ${code ?? ""}`);
      else {
        customer.cardRemoved = true;
        report.cardRemovals++;
      }
    } else if (
      standing.status === "ACTIVE" &&
      live &&
      standing.hasCard &&
      customer.method === "card" &&
      !isProviderDown &&
      roll > 0.994 &&
      roll <= 0.997
    ) {
      const [noticeBefore] = (await noticesOfSubscription(standing.subscriptionId, 0)).slice(-1);
      const answer = await asCustomer(customer, api.profile.addDevice.post);
      const approves = (approvingCards as readonly string[]).includes(customer.card.number);
      if (answer.status === 200 && answer.data) {
        customer.devices++;
        report.devices++;
        await checkSlotNotice(customer, standing.subscriptionId, noticeBefore);
        const { charged } = answer.data;
        // Priced at the moment the purchase was committed, to the period's end, on its billing day.
        const bought = await database.get<{
          amount: number;
          created_at: number;
          end_date: number;
          billing_anchor: number | null;
        }>(
          `SELECT p.amount, p.created_at, s.end_date, s.billing_anchor FROM payments p
           JOIN subscriptions s ON s.id = p.subscription_id
           WHERE p.subscription_id = ? AND p.kind = 'device' ORDER BY p.id DESC LIMIT 1`,
          [standing.subscriptionId],
        );
        const expected = bought
          ? expectedSlotCharge(
              bought.end_date,
              bought.created_at,
              new Date(bought.billing_anchor ?? bought.end_date).getUTCDate(),
            )
          : undefined;
        if (expected === undefined || Math.round(charged * 100) !== expected || bought?.amount !== expected)
          problem(
            `${customer.email}: device charged ${charged} (recorded ${(bought?.amount ?? 0) / 100}), pro rata ${(expected ?? 0) / 100}`,
          );
      } else if (approves || answer.status !== 409) {
        problem(`${customer.email}: addDevice → ${answer.status}`);
      }
    } else if (roll > 0.9935 && roll <= 0.994) {
      const promo = usablePromo();
      if (promo && (standing.status === "ACTIVE" || standing.status === "CANCELED"))
        await applyPromo(customer, promo);
    } else if (
      (standing.status === "ACTIVE" || standing.status === "CANCELED") &&
      !isProviderDown &&
      roll > 0.9925 &&
      roll <= 0.9935
    ) {
      const answer = await api.panel.refund.post(
        { email: customer.email, uid: customer.uid },
        { headers: await staffHeaders() },
      );
      if (answer.status !== 200 || !answer.data) problem(`${customer.email}: refund → ${answer.status}`);
      else if (answer.data.Success) {
        customer.refunded = true;
        report.refunds++;
      }
    }
  };

  // --- the outage ---------------------------------------------------------------------
  /**
   * Takes the outage's provider down or brings it back. Back up, the passes' leases taken
   * while it was down must lapse before the next pass can look their attempts up.
   */
  const switchOutage = async (isDown: boolean) => {
    if (isDown === down.isDown) return;
    await dataOf(api.dev.sandbox.outage.post({ provider: outage.provider, isDown }));
    down.isDown = isDown;
    if (!isDown) await (options.waitForLeases ?? (() => Bun.sleep(leaseMs + 1_000)))();
  };
  /** Each period a renewal met the outage in: charged at most once, and once where it could be. */
  const countOutageRecharges = async () => {
    if (unanswered.size > 0) problem(`${unanswered.size} renewal attempts of the outage never settled`);
    const completed = await database.all<{ subscription_id: number; period_index: number; count: number }>(
      `SELECT subscription_id, period_index, COUNT(*) AS count FROM payments
       WHERE kind = 'renewal' AND status IN ('completed', 'refunded') AND amount > 0
       GROUP BY subscription_id, period_index`,
    );
    for (const row of completed) {
      if (!outagePeriods.has(`${row.subscription_id}/${row.period_index}`)) continue;
      if (Number(row.count) === 1) report.outageRecharged++;
    }
    // A period the outage met and no bank decided afterwards was dropped for the outage.
    const decided = new Set(
      (
        await database.all<{ subscription_id: number; period_index: number }>(
          `SELECT subscription_id, period_index FROM payments WHERE kind = 'renewal' AND status <> 'pending'
             AND (decline_reason IS NULL OR decline_reason <> 'not sent to the gateway')`,
        )
      ).map((row) => `${row.subscription_id}/${row.period_index}`),
    );
    for (const [key, customer] of outageCustomers)
      if (!decided.has(key) && !customer.cardRemoved && !customer.refunded && !customer.hasCanceled)
        problem(`${customer.email}: the renewal the outage met (${key}) was never charged after it`);
  };

  // --- the story ----------------------------------------------------------------------
  await createPromos(6);
  const joinDays = Array.from({ length: options.customers }, () => random.int(0, 90)).sort((a, b) => a - b);
  const startedAt = now;
  const endAt = addMonthsUtc(startedAt, options.months);
  let joined = 0;
  let promoWave = false;
  let routesFirst: PaymentProvider | undefined;
  while (now < endAt) {
    const day = (now - startedAt) / dayMs;
    lastDay = day;
    const isBuying = joined < options.customers || awaitingPayment.length > 0;
    if (isBuying && firstProviderOn(day) !== routesFirst) {
      routesFirst = firstProviderOn(day);
      await putRoutes(api, await staffHeaders(), routesFirst);
      report.routeChanges++;
    }
    // What the server knows of the outage: once a pass met it, the provider is skipped.
    down.isSeenDown =
      down.isDown && isBuying && !(await isHealthy(api, await staffHeaders(), outage.provider));
    for (const customer of awaitingPayment.splice(0)) {
      await payFirst(customer, { tryInviterCard: false, declinedFirst: false });
      if (customer.paid) report.deferredPurchases++;
    }
    const joining: number[] = [];
    while (joined < options.customers && (joinDays[joined] ?? 0) <= day) joining.push(joined++);
    // Joins run one by one: an invitee needs its inviter to exist and to have paid.
    for (const index of joining) await join(index, day);
    if (!promoWave && day > 180) {
      promoWave = true;
      await createPromos(4);
    }
    const standing = await standings();
    await inParallel(
      customers.filter((customer) => customer !== undefined),
      (customer) => act(customer, standing.get(customer.userId)),
    );
    await advance(random.int(1, 3));
    const today = (now - startedAt) / dayMs;
    await options.onDay?.(today);
    await switchOutage(today >= outage.fromDay && today < outage.toDay);
    await runBilling();
    report.steps++;
    if (report.steps % 50 === 0)
      log(`day ${Math.round(day)}: ${report.renewalAttempts} renewal attempts checked`);
  }

  report.noticesDelayed =
    (
      await database.get<{ count: number }>(
        `SELECT COUNT(*) AS count FROM renewal_notices n JOIN mail_outbox m ON m.id = n.mail_id
         WHERE m.sent_at > n.created_at + 3600000`,
      )
    )?.count ?? 0;
  await switchOutage(false);
  await dataOf(api.dev.sandbox.sbp.settled.get());
  const reconciled = await reconcile(
    database,
    {
      cloudPayments: await dataOf(api.dev.sandbox.ledger.get({ query: {} })),
      yooKassa: await dataOf(api.dev.sandbox.yookassa.ledger.get({ query: {} })),
    },
    problem,
  );
  Object.assign(report, reconciled);
  await countOutageRecharges();
  return report;
}

/**
 * The typed client, each call sent through `send`. Eden types its fetcher as Bun's
 * `fetch`, which also carries `preconnect`; these requests never need one.
 */
function clientOver(send: Send): Api {
  const fetcher = (input: RequestInfo | URL, init?: RequestInit) => send(new Request(input, init));
  return treaty<App>("http://localhost", {
    parseDate: false,
    fetcher: Object.assign(fetcher, { preconnect: fetch.preconnect }),
  }).api;
}

/** The login form's proof of work (ALTCHA: SHA-256 of salt + number). */
async function solveCaptcha(api: Api): Promise<string> {
  const challenge = await dataOf(api.auth.captcha.get());
  if (!challenge || !("algorithm" in challenge)) throw new Error("the login's captcha is not ALTCHA");
  const max = challenge.maxnumber ?? 1_000_000;
  for (let number = 0; number <= max; number++) {
    if (new Bun.CryptoHasher("sha256").update(challenge.salt + number).digest("hex") === challenge.challenge)
      return btoa(JSON.stringify({ ...challenge, number, maxnumber: undefined }));
  }
  throw new Error("captcha not solvable");
}

/**
 * One more device slot for the rest of the period (docs/money.md, Device slots), in minor units: the
 * monthly price for each whole billing month left, plus the part left of the billing month
 * now running over that month's real length, half up to whole units, at least one unit.
 * Billing months end on `billingDay`, counted back from the period's end.
 */
export function expectedSlotCharge(periodEnd: number, at: number, billingDay: number): number {
  if (periodEnd <= at) return 100;
  const monthsBack = (count: number) => {
    if (count === 0) return periodEnd;
    const date = new Date(periodEnd);
    const month = date.getUTCMonth() - count;
    const last = new Date(Date.UTC(date.getUTCFullYear(), month + 1, 0)).getUTCDate();
    return Date.UTC(date.getUTCFullYear(), month, Math.min(billingDay, last)) + (periodEnd % dayMs);
  };
  let whole = 0;
  while (monthsBack(whole + 1) > at) whole++;
  const length = monthsBack(whole) - monthsBack(whole + 1);
  const scaled = devicePerMonth * (whole * length + (monthsBack(whole) - at)); // minor units × length
  return Math.max(100, Math.floor((scaled + 50 * length) / (100 * length)) * 100);
}

/** Calendar months in UTC, landing on `day`, or on the last day of a shorter month. */
function addMonthsOnDayUtc(time: number, months: number, day: number): number {
  const date = new Date(time);
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return date.getTime();
}

/** Calendar months in UTC, clamped to the month's last day (as a billing period runs). */
const addMonthsUtc = (time: number, months: number) =>
  addMonthsOnDayUtc(time, months, new Date(time).getUTCDate());
