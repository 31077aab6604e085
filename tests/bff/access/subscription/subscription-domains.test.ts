import { describe, expect, test } from "vitest";
import { apiOf, dataOf, identityOf, sessionOf } from "../../../helpers/api";
import { makeTestApp } from "../../../helpers/app";
import { signIn } from "../../../helpers/customers";
import { reportedNode } from "../../../helpers/nodes";
import { cards, order, payWithCard } from "../../../helpers/payments";
import { inbounds } from "../../../helpers/subscription-inbounds";

/**
 * DESIGN §8: a second subscription domain. Links are issued on SUBSCRIPTION_URL; the old
 * domain keeps answering, and tells Happ the new one (`new-domain`, beside `providerid`).
 */
const { app, context } = await makeTestApp({
  PUBLIC_URL: "https://kannt.example",
  SUBSCRIPTION_URL: "https://sub.kannt.example/",
  HAPP_PROVIDER_ID: "Ab12Cd34",
});
await reportedNode(
  context.database,
  { name: "Amsterdam", host: "nl.example.com", inbounds: [inbounds.realityVision] },
  context.clock.now(),
);

async function issuedLink(email: string) {
  const customer = await signIn(app, email, { period: 1 });
  const widget = await order(app, customer, 1, 1);
  expect((await payWithCard(app, widget.invoiceId, cards.success)).success).toBe(true);
  const connected = await dataOf(
    apiOf(app).profile.devices.connect.post(identityOf(customer), sessionOf(customer)),
  );
  return connected.subscriptionUrl;
}

const fetchVia = (origin: string, link: string) =>
  app.handle(new Request(`${origin}${new URL(link).pathname}`, { headers: { "user-agent": "Happ/3.8.1" } }));

describe("a second subscription domain", () => {
  test("the link a customer is given names SUBSCRIPTION_URL, not PUBLIC_URL", async () => {
    const link = await issuedLink("domain-link@example.com");
    expect(link).toMatch(/^https:\/\/sub\.kannt\.example\/sub\/[A-Za-z0-9_-]+$/);
  });

  test("a fetch on the old host answers, with new-domain naming the new one; on the new host, none", async () => {
    const link = await issuedLink("domain-move@example.com");
    const old = await fetchVia("https://kannt.example", link);
    expect(old.status).toBe(200);
    expect(old.headers.get("new-domain")).toBe("sub.kannt.example");
    expect(old.headers.get("providerid")).toBe("Ab12Cd34");
    const configs = JSON.parse(await old.text()) as { remarks: string }[];
    expect(configs.map((config) => config.remarks)).toEqual(["Kannt · Amsterdam"]);

    const current = await fetchVia("https://sub.kannt.example", link);
    expect(current.status).toBe(200);
    expect(current.headers.get("new-domain")).toBeNull();
  });
});

describe("the setting", () => {
  test("unset, links are issued on PUBLIC_URL; a value that is no http(s) origin stops the start", async () => {
    const plain = await makeTestApp({ PUBLIC_URL: "https://kannt.example" });
    expect(plain.context.config.subscriptionUrl).toBe("https://kannt.example");
    expect(plain.context.config.isSubscriptionUrlSet).toBe(false);
    await expect(makeTestApp({ SUBSCRIPTION_URL: "sub.kannt.example" })).rejects.toThrow(/SUBSCRIPTION_URL/);
    await expect(makeTestApp({ HAPP_PROVIDER_ID: "short" })).rejects.toThrow(/HAPP_PROVIDER_ID/);
  });
});
