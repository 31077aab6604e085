import { YooCheckout } from "@a2seven/yoo-checkout";
import { afterAll, expect, test } from "vitest";
import { startLoopbackServer } from "../../helpers/loopback-server";
import { receiptOfAmount } from "../../helpers/yookassa";

// DESIGN §6: any YooKassa client library whose base URL can be set works against the
// sandbox unchanged. This is the most used one on npm (@a2seven/yoo-checkout, over axios),
// its code as published; only its `root` (YooKassa's API address) is pointed at the server.

const started = await startLoopbackServer("yookassa-library");
afterAll(() => started.shutdown());
const origin = `http://127.0.0.1:${started.server.port}`;
const checkout = new YooCheckout({
  shopId: started.context.config.yooKassaShopId,
  secretKey: started.context.config.yooKassaSecretKey,
});
// Its types mark `root` read-only; it is a plain property, set in the constructor.
const sandboxApi = `${origin}/api/dev/sandbox/yookassa/v3`;
Object.assign(checkout, { root: sandboxApi });

test("a library's create, look-up, list, refund and refund look-up, unchanged", async () => {
  const since = new Date(started.context.clock.now()).toISOString();
  const key = crypto.randomUUID();
  const payload = {
    amount: { value: "150.00", currency: "RUB" },
    capture: true,
    description: "Kannt, 1 month",
    payment_method_data: { type: "bank_card" },
    confirmation: { type: "redirect", return_url: "https://shop.example/return" },
    receipt: receiptOfAmount("150.00"),
    metadata: { invoice_id: `library-${key}` },
  } as Parameters<YooCheckout["createPayment"]>[0];
  const created = await checkout.createPayment(payload, key);
  expect(created).toMatchObject({ status: "pending", amount: { value: "150.00", currency: "RUB" } });
  // The same key again: the same payment, as YooKassa answers a retry.
  expect((await checkout.createPayment(payload, key)).id).toBe(created.id);

  // The payer pays on the sandbox's checkout page.
  const paid = await fetch(`${origin}/api/dev/sandbox/yookassa/checkout/pay`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ paymentId: created.id, cardNumber: "4242 4242 4242 4242" }),
  });
  expect(paid.status).toBe(200);
  expect(await checkout.getPayment(created.id)).toMatchObject({
    id: created.id,
    status: "succeeded",
    paid: true,
  });

  const listed = await checkout.getPaymentList({ created_at: { value: since, mode: "gte" }, limit: 100 });
  expect(listed.items.map((payment) => payment.id)).toContain(created.id);

  const refund = await checkout.createRefund(
    {
      payment_id: created.id,
      amount: { value: "150.00", currency: "RUB" },
      receipt: receiptOfAmount("150.00"),
    },
    crypto.randomUUID(),
  );
  expect(refund).toMatchObject({ payment_id: created.id, status: "succeeded" });
  expect(await checkout.getRefund(refund.id)).toMatchObject({ id: refund.id, status: "succeeded" });
});

test("the library's errors carry YooKassa's error object", async () => {
  const wrong = new YooCheckout({ shopId: started.context.config.yooKassaShopId, secretKey: "not the key" });
  Object.assign(wrong, { root: sandboxApi });
  await expect(wrong.getPayment("no-such-payment")).rejects.toMatchObject({
    response: { status: 401, data: { type: "error", code: "invalid_credentials" } },
  });
});
