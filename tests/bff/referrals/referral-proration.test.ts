import { describe, expect, test } from "vitest";
import type { TariffMonths } from "../../../core/prices";
import { apiOf, dataOf, identityOf, sessionOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { fixture, referralCodeOf, type SignedIn, signIn } from "../../helpers/customers";
import { cards, order, passDays, payWithCard } from "../../helpers/payments";

// DESIGN §13: a month of an invitee's payment gives at most a month of discount; on a longer
// period the discount is prorated per month. Four puppet accounts at 151 ₽ each must not
// make a 1,080 ₽ year free.

type App = Awaited<ReturnType<typeof makeTestApp>>;

/** An inviter on a plan of `tariff` months, one day into its trial, with invitees paying for `inviteeMonths`. */
async function inviterWith(world: App, email: string, tariff: TariffMonths, inviteeMonths: TariffMonths[]) {
  const inviter = await signIn(world.app, email, { period: 1, tariff });
  const options = await order(world.app, inviter, tariff, 1);
  expect((await payWithCard(world.app, options.invoiceId, cards.success)).success).toBe(true);
  const code = await referralCodeOf(world.app, inviter);
  for (const [index, months] of inviteeMonths.entries())
    await fixture(world.app, {
      email: `${index}-${email}`,
      status: "ACTIVE",
      referralCode: code,
      tariff: months,
    });
  return { inviter, userId: Number(options.accountId.replace("customer-", "")) };
}

const renewalsOf = async ({ context }: App, userId: number) =>
  (
    await context.database.all<{ amount: number; status: string }>(
      "SELECT amount, status FROM payments WHERE user_id = ? AND kind = 'renewal' ORDER BY id",
      [userId],
    )
  ).map((payment) => [payment.amount, payment.status]);

const noticesOf = async ({ context }: App, userId: number) =>
  (
    await context.database.all<{ amount: number }>(
      `SELECT n.amount FROM renewal_notices n JOIN subscriptions s ON s.id = n.subscription_id
       WHERE s.user_id = ? ORDER BY n.id`,
      [userId],
    )
  ).map((notice) => notice.amount);

async function cabinetOf({ app }: App, customer: SignedIn) {
  const api = apiOf(app);
  const shop = await dataOf(api.shop.getShop.post(identityOf(customer), sessionOf(customer)));
  const referrals = await dataOf(api.profile.referrals.post(identityOf(customer), sessionOf(customer)));
  const profile = await dataOf(api.profile.post(identityOf(customer), sessionOf(customer)));
  return { shop, referrals, profile };
}

describe("referral discounts cannot be bought cheaper than they give", () => {
  test("four one-month invitees take one month's price off a 1,080 ₽ year: the renewal charges 990 ₽, and the cabinet says so", async () => {
    const world = await makeTestApp();
    const { inviter, userId } = await inviterWith(world, "yearly-inviter@example.com", 12, [1, 1, 1, 1]);
    const { shop, referrals, profile } = await cabinetOf(world, inviter);
    // What the cabinet shows is what the renewal of the inviter's own (yearly) period charges.
    expect(shop.monthlyPayment).toBe(990);
    expect(shop.referralDiscount).toBeCloseTo(1 / 12, 12);
    expect(shop.discount).toBeCloseTo(1 / 12, 12);
    expect(profile.userInfo.amount).toBe(990);
    expect(referrals.periodMonths).toBe(12);
    expect(referrals.referralDiscount).toBeCloseTo(1 / 12, 12);
    expect(referrals.invitees).toHaveLength(4);
    for (const invitee of referrals.invitees) {
      expect(invitee).toMatchObject({ counts: true, periodMonths: 1 });
      expect(invitee.discountPercent).toBeCloseTo(25 / 12, 12);
    }
    // Each plan is priced with its own period's share: the same four make a month free.
    expect(shop.plans.find((plan) => plan.months === 1)?.price).toBe(0);
    expect(shop.plans.find((plan) => plan.months === 12)?.price).toBe(990);

    await passDays(world.app, 1.5);
    expect(await noticesOf(world, userId)).toEqual([99_000]);
    expect(await renewalsOf(world, userId)).toEqual([[99_000, "completed"]]);
  });

  test("on a monthly plan the same four one-month invitees make the renewal free", async () => {
    const world = await makeTestApp();
    const { inviter, userId } = await inviterWith(world, "monthly-inviter@example.com", 1, [1, 1, 1, 1]);
    const { shop, referrals } = await cabinetOf(world, inviter);
    expect(shop.monthlyPayment).toBe(0);
    expect(shop.referralDiscount).toBe(1);
    expect(referrals.invitees.map((invitee) => invitee.discountPercent)).toEqual([25, 25, 25, 25]);
    await passDays(world.app, 1.5);
    expect(await renewalsOf(world, userId)).toEqual([[0, "completed"]]);
  });

  test("an invitee paying for a year gives the full 25% on a yearly renewal: 810 ₽", async () => {
    const world = await makeTestApp();
    const { inviter, userId } = await inviterWith(world, "year-friend@example.com", 12, [12]);
    const { shop, referrals } = await cabinetOf(world, inviter);
    expect(shop.referralDiscount).toBe(0.25);
    expect(referrals.invitees[0]?.discountPercent).toBe(25);
    await passDays(world.app, 1.5);
    expect(await renewalsOf(world, userId)).toEqual([[81_000, "completed"]]);
  });

  test("invitees paying for three and six months give a half and a full quarter on a half-year", async () => {
    const world = await makeTestApp();
    const { inviter, userId } = await inviterWith(world, "half-year@example.com", 6, [3, 6]);
    expect((await cabinetOf(world, inviter)).shop.referralDiscount).toBe(0.375);
    await passDays(world.app, 1.5);
    expect(await renewalsOf(world, userId)).toEqual([[37_500, "completed"]]); // 600 × 0.625
  });
});
