import { describe, expect, test } from "vitest";
import { seedEntries } from "../../../../bff/modules/access/entries/entry-seeding";
import { allowListSize } from "../../../../bff/modules/access/subscription/allowlist/allowlist";
import { addMonthsOnDay, dayMs } from "../../../../core/calendar";
import { apiOf, dataOf, identityOf, sessionOf } from "../../../helpers/api";
import { makeTestApp, request } from "../../../helpers/app";
import { connectDeviceInUse, type SignedIn, signIn } from "../../../helpers/customers";
import { allowList, entryWithId, nodeHeaders } from "../../../helpers/nodes";
import {
  advanceDays,
  cards,
  ledger,
  order,
  passDays,
  payWithCard,
  runBilling,
} from "../../../helpers/payments";
import { inbounds } from "../../../helpers/subscription-inbounds";

// DESIGN §13: extra device slots never ride along unpaid. A prepaid purchase that extends a
// period holding slots adds time the slots were not paid for: they end with the period they
// were paid for (the binding preview says so), their devices leave the nodes then, while the
// included slot stays for the whole period, and no renewal charges them.

type World = Awaited<ReturnType<typeof makeTestApp>>;

/** A paid anonymous /instantPay purchase of `months` at the plan's price (the buyer's card had a trial). */
async function prepaidPurchase({ app }: World, months: number) {
  const prepaidToken = `${"5a4b3c".repeat(5)}_slots_${months}`;
  const options = await dataOf(
    apiOf(app).shop.order.post({ prepaidToken, tariff: months, period: 30, fullPrice: true }),
  );
  expect((await payWithCard(app, options.invoiceId, cards.success)).success).toBe(true);
  return prepaidToken;
}

const subscriptionOf = ({ context }: World, userId: number) =>
  context.database.get<{
    end_date: number;
    extra_devices: number;
    slots_paid_until: number | null;
    billing_anchor: number;
  }>(
    "SELECT end_date, extra_devices, slots_paid_until, billing_anchor FROM subscriptions WHERE user_id = ?",
    [userId],
  );

const profileOf = ({ app }: World, customer: SignedIn) =>
  dataOf(apiOf(app).profile.post(identityOf(customer), sessionOf(customer)));

/** A monthly customer past the trial, with two slots bought and three devices connected, oldest first. */
async function monthlyWithSlots(world: World) {
  const { app, context } = world;
  const customer = await signIn(app, "five-phones@example.com", { period: 1 });
  const widget = await order(app, customer, 1, 1);
  expect((await payWithCard(app, widget.invoiceId, cards.success)).success).toBe(true);
  await passDays(app, 1.01); // the first month is paid
  for (let slot = 0; slot < 2; slot++)
    expect((await apiOf(app).profile.addDevice.post(identityOf(customer), sessionOf(customer))).status).toBe(
      200,
    );
  const ids: string[] = [];
  const links: string[] = [];
  for (let device = 0; device < 3; device++) {
    const { deviceId, subscriptionUrl } = await connectDeviceInUse(app, customer);
    links.push(new URL(subscriptionUrl).pathname);
    const row = await context.database.get<{ credential: string }>(
      "SELECT credential FROM devices WHERE device_id = ?",
      [deviceId],
    );
    ids.push(row?.credential ?? "");
  }
  return {
    customer,
    userId: Number(widget.accountId.replace("customer-", "")),
    accountId: widget.accountId,
    ids,
    links,
  };
}

/** The words of the one placeholder a link answers, or undefined when it lists servers. */
async function placeholderOf({ app }: World, path: string): Promise<string | undefined> {
  const answer = await app.handle(request(path));
  expect(answer.status).toBe(200);
  const lines = Buffer.from(await answer.text(), "base64")
    .toString("utf8")
    .split("\n");
  const link = new URL(lines[0] ?? "");
  return link.username === "00000000-0000-0000-0000-000000000000"
    ? decodeURIComponent(link.hash.slice(1))
    : undefined;
}

describe("a prepaid year bound to a monthly account with two extra slots", () => {
  test("the preview says the slots end with their paid month; then their devices leave the nodes and the year's renewal charges none", async () => {
    const world = await makeTestApp();
    const { app, context } = world;
    const api = apiOf(app);
    const node = await nodeHeaders(context, "nl-prepaid-slots");
    const { customer, userId, accountId, ids, links } = await monthlyWithSlots(world);
    await context.database.run(
      "UPDATE vpn_nodes SET host = ?, inbounds = ?, last_seen_at = ? WHERE name = ?",
      ["nl.example.com", JSON.stringify([inbounds.realityVision]), Date.now(), "nl-prepaid-slots"],
    );
    // The entry the node's first report would seed: subscriptions list entries.
    const nodeRow = await context.database.get<{ id: number }>("SELECT id FROM vpn_nodes WHERE name = ?", [
      "nl-prepaid-slots",
    ]);
    await seedEntries(context.database, Number(nodeRow?.id), [inbounds.realityVision], context.clock.now());
    const before = await subscriptionOf(world, userId);
    const paidMonthEnd = before?.end_date ?? 0;
    const billingDay = new Date(before?.billing_anchor ?? 0).getUTCDate();
    const yearEnd = addMonthsOnDay(paidMonthEnd, 12, billingDay);
    const prepaidToken = await prepaidPurchase(world, 12);

    const preview = await dataOf(
      api.shop.prepaidPreview.post({ ...identityOf(customer), prepaidToken }, sessionOf(customer)),
    );
    expect(preview).toEqual({
      outcome: "extends",
      months: 12,
      until: new Date(yearEnd).toISOString(),
      slotsEnd: { count: 2, until: new Date(paidMonthEnd).toISOString() },
    });
    const attached = await dataOf(
      api.shop.attachPrepaid.post({ ...identityOf(customer), prepaidToken }, sessionOf(customer)),
    );
    expect(attached).toMatchObject({
      bound: true,
      expirationDate: new Date(yearEnd).toISOString(),
    });
    expect(await subscriptionOf(world, userId)).toMatchObject({
      end_date: yearEnd,
      extra_devices: 2,
      slots_paid_until: paidMonthEnd,
    });

    // Until the paid month ends all three are on the nodes, the extra ones only until then.
    const now = context.clock.now();
    const list = await allowList(app, node);
    expect(list.entries).toHaveLength(3);
    for (const id of ids.slice(1)) {
      const left = entryWithId(list, id)?.remainingMs ?? 0;
      expect(left).toBeLessThanOrEqual(paidMonthEnd - now);
      expect(left).toBeGreaterThan(paidMonthEnd - now - 60_000);
    }
    expect(entryWithId(list, ids[0] ?? "")?.remainingMs).toBeGreaterThan(yearEnd - now);
    expect(await allowListSize(context.database, now)).toBe(3);
    // The next renewal, a year on, is the plan alone.
    expect((await profileOf(world, customer)).userInfo.amount).toBe(150);

    // Past the paid month: the included slot stays, the two extra devices are off the nodes.
    await advanceDays(app, (paidMonthEnd - context.clock.now()) / dayMs + 1);
    await runBilling(app);
    expect((await allowList(app, node)).entries.map((entry) => entry.id)).toEqual([ids[0]]);
    expect(await allowListSize(context.database, context.clock.now())).toBe(1);
    // Their links say so inside the app, by the nodes' own rule; the included one lists servers.
    expect(await placeholderOf(world, links[0] ?? "")).toBeUndefined();
    for (const link of links.slice(1)) expect(await placeholderOf(world, link)).toMatch(/slot/i);
    const back = await signIn(app, customer.email);
    expect((await profileOf(world, back)).availableDevices).toBe(0);
    expect(
      (await api.profile.devices.connect.post(identityOf(back), sessionOf(back))).status,
      "no slot for a fourth device",
    ).toBe(409);

    // The year's renewal: the plan's price, no slots, and none left after it.
    await advanceDays(app, (yearEnd - context.clock.now()) / dayMs - 2);
    await runBilling(app);
    await advanceDays(app, 2.05);
    await runBilling(app);
    const charges = (await ledger(app, accountId)).filter((entry) => entry.invoiceId.startsWith("renewal-"));
    expect(charges.map((entry) => entry.amount)).toEqual([150, 150]);
    expect(await subscriptionOf(world, userId)).toMatchObject({ extra_devices: 0, slots_paid_until: null });
  });

  test("a slot bought while the others run out is priced to their end and ends with them; one bought after runs with the period", async () => {
    const world = await makeTestApp();
    const { app, context } = world;
    const api = apiOf(app);
    const { customer, userId } = await monthlyWithSlots(world);
    const paidMonthEnd = (await subscriptionOf(world, userId))?.end_date ?? 0;
    const prepaidToken = await prepaidPurchase(world, 12);
    const attached = await api.shop.attachPrepaid.post(
      { ...identityOf(customer), prepaidToken },
      sessionOf(customer),
    );
    expect(attached.status).toBe(200);
    /** What one more slot costs now, and until when; the shop offers it to a paying customer. */
    const shopOf = async (who: SignedIn) => {
      const { deviceCharge } = await dataOf(api.shop.getShop.post(identityOf(who), sessionOf(who)));
      if (!deviceCharge) throw new Error("the shop offers no device slot");
      return deviceCharge;
    };
    const joining = await shopOf(customer);
    expect(joining.until).toBe(new Date(paidMonthEnd).toISOString());
    expect(joining.amount).toBeLessThanOrEqual(50);
    const bought = await dataOf(
      api.profile.addDevice.post({ ...identityOf(customer), amount: joining.amount }, sessionOf(customer)),
    );
    expect(bought).toMatchObject({ charged: joining.amount });
    expect(await subscriptionOf(world, userId)).toMatchObject({
      extra_devices: 3,
      slots_paid_until: paidMonthEnd,
    });

    await advanceDays(app, (paidMonthEnd - context.clock.now()) / dayMs + 1);
    const back = await signIn(app, customer.email);
    const yearEnd = (await subscriptionOf(world, userId))?.end_date ?? 0;
    const fresh = await shopOf(back);
    expect(fresh.until).toBe(new Date(yearEnd).toISOString());
    expect(fresh.amount).toBeGreaterThan(500); // about eleven months of a slot
    expect(
      (await api.profile.addDevice.post({ ...identityOf(back), amount: fresh.amount }, sessionOf(back)))
        .status,
    ).toBe(200);
    expect(await subscriptionOf(world, userId)).toMatchObject({ extra_devices: 1, slots_paid_until: null });
    expect((await profileOf(world, back)).userInfo.amount).toBe(200);
  });
});
