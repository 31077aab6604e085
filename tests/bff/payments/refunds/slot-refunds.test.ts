import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, sessionOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { connectDeviceInUse, type SignedIn, signIn } from "../../../helpers/customers";
import { allowList, nodeHeaders } from "../../../helpers/nodes";
import { cards, order, passDays, payWithCard } from "../../../helpers/payments";
import { buyDevice, panelRefund, staffHeaders } from "../../../helpers/refunds";

// DESIGN §13: a refunded device-slot charge takes its slot away. The device beyond the slots
// leaves the nodes (the next allow-list read, which agents poll for within 5 s), and the
// renewal no longer charges the slot.

type World = Awaited<ReturnType<typeof makeTestApp>>;

/** A customer on a one-day trial with two slots bought and three devices connected, oldest first. */
async function customerWithSlot(world: World, email: string) {
  const { app, context } = world;
  const customer = await signIn(app, email, { period: 1 });
  const widget = await order(app, customer, 1, 1);
  expect((await payWithCard(app, widget.invoiceId, cards.success)).success).toBe(true);
  for (let slot = 0; slot < 2; slot++) await buyDevice(app, customer);
  const tags: string[] = [];
  for (let device = 0; device < 3; device++) {
    const { deviceId } = await connectDeviceInUse(app, customer);
    const row = await context.database.get<{ node_tag: string }>(
      "SELECT node_tag FROM devices WHERE device_id = ?",
      [deviceId],
    );
    tags.push(row?.node_tag ?? "");
  }
  const userId = Number(widget.accountId.replace("customer-", ""));
  const slotCharge = await context.database.get<{ transaction_id: string; amount: number }>(
    "SELECT transaction_id, amount FROM payments WHERE user_id = ? AND kind = 'device' ORDER BY id DESC LIMIT 1",
    [userId],
  );
  return {
    customer,
    userId,
    tags,
    slotCharge: { transactionId: slotCharge?.transaction_id ?? "", amount: slotCharge?.amount ?? 0 },
  };
}

const availableDevices = async ({ app }: World, customer: SignedIn) =>
  (await dataOf(apiOf(app).profile.post(identityOf(customer), sessionOf(customer)))).availableDevices;

async function expectSlotTaken(
  world: World,
  bought: Awaited<ReturnType<typeof customerWithSlot>>,
  node: Record<string, string>,
  since: number,
) {
  const { app, context } = world;
  // Exactly one slot goes: the newest device leaves the nodes as a delta, the two oldest stay.
  const slots = await context.database.get<{ extra_devices: number }>(
    "SELECT extra_devices FROM subscriptions WHERE user_id = ?",
    [bought.userId],
  );
  expect(slots?.extra_devices).toBe(1);
  const delta = await allowList(app, node, { since });
  expect(delta.full).toBe(false);
  expect(delta.removed).toEqual([bought.tags[2]]);
  const full = await allowList(app, node);
  expect(full.entries.map((entry) => entry.tag).sort()).toEqual(bought.tags.slice(0, 2).sort());
  expect(await availableDevices(world, bought.customer)).toBe(0);
  // The renewal at the trial's end is the plan with the one slot left.
  await passDays(app, 1.5);
  const renewals = await context.database.all<{ amount: number }>(
    "SELECT amount FROM payments WHERE user_id = ? AND kind = 'renewal' ORDER BY id",
    [bought.userId],
  );
  expect(renewals).toEqual([{ amount: 20_000 }]);
}

describe("a refunded slot charge takes its slot away", () => {
  test.each([
    ["its Refund notification arrives first", false],
    ["its Refund notification is not in yet", true],
  ])("an operator's refund of exactly a slot's charge (paymentIds), %s", async (_, isNotificationLate) => {
    const world = await makeTestApp();
    const { app, context } = world;
    if (isNotificationLate)
      // The gateway refunds, and its notification is lost on the way: the refund's own record takes the slot.
      context.http.attachLoopback(async (request) =>
        new URL(request.url).pathname === "/api/payments/cloudpayments/refund"
          ? Response.json({ code: 0 })
          : app.handle(request),
      );
    const node = await nodeHeaders(context, "nl-slots-1");
    const bought = await customerWithSlot(world, "slot-refund-panel@example.com");
    const before = await allowList(app, node);
    expect(before.entries.map((entry) => entry.tag).sort()).toEqual([...bought.tags].sort());
    const staff = await staffHeaders(app, context);
    const answer = await panelRefund(app, await staff.admin(), {
      email: bought.customer.email,
      uid: bought.customer.uid,
      paymentIds: [bought.slotCharge.transactionId],
    });
    expect(answer).toMatchObject({ Success: true, endsAccess: false });
    await expectSlotTaken(world, bought, node, before.version);
  });

  test("the gateway's signed Refund of the slot's payment; a part of it keeps the slot", async () => {
    const world = await makeTestApp();
    const { app, context } = world;
    const node = await nodeHeaders(context, "nl-slots-2");
    const bought = await customerWithSlot(world, "slot-refund-gateway@example.com");
    const before = await allowList(app, node);
    const sandbox = context.payments.sandbox;
    if (!sandbox) throw new Error("the test app runs the sandbox gateway");
    // Half of it first: the slot stays, as the money that bought most of it does.
    const half = bought.slotCharge.amount / 200;
    expect(
      (await sandbox.refund({ TransactionId: Number(bought.slotCharge.transactionId), Amount: half }))
        .Success,
    ).toBe(true);
    expect((await allowList(app, node)).entries).toHaveLength(3);
    const rest = bought.slotCharge.amount / 100 - half;
    expect(
      (await sandbox.refund({ TransactionId: Number(bought.slotCharge.transactionId), Amount: rest }))
        .Success,
    ).toBe(true);
    await expectSlotTaken(world, bought, node, before.version);
  });
});
