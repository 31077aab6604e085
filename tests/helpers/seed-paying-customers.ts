/**
 * Creates `count` customers who paid their first payment through the HTTP API, in
 * parallel batches. Each pays with a card of its own (no expiry named); the trial is once
 * per card and one number has 1,200 expiries, so the two approving test numbers alternate.
 */
export async function seedPayingCustomers(
  origin: string,
  count: number,
  cards = ["4242 4242 4242 4242", "5555 5555 5555 4444"],
  prefix = "payer",
) {
  const post = async (path: string, body: unknown, cookie?: string) => {
    const response = await fetch(`${origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response;
  };
  const accounts: string[] = [];
  for (let start = 0; start < count; start += 25) {
    const batch = Array.from({ length: Math.min(25, count - start) }, async (_, offset) => {
      const email = `${prefix}${start + offset}@example.com`;
      const token = (await (await post("/api/dev/idp/token", { email })).json()) as {
        credential: string;
        uid: string;
      };
      const register = await post("/api/register", {
        ...token,
        email,
        providerId: "google.com",
        period: 1,
        tariff: 1,
      });
      const cookie = register.headers.getSetCookie()[0]?.split(";")[0];
      const order = (await (
        await post("/api/shop/order", { email, uid: token.uid, tariff: 1, period: 1 }, cookie)
      ).json()) as {
        invoiceId: string;
        accountId: string;
      };
      const paid = (await (
        await post("/api/dev/sandbox/pay", {
          invoiceId: order.invoiceId,
          cardNumber: cards[(start + offset) % cards.length],
        })
      ).json()) as { success: boolean };
      if (!paid.success) throw new Error(`first payment of ${email} failed`);
      return order.accountId;
    });
    accounts.push(...(await Promise.all(batch)));
  }
  return accounts;
}
