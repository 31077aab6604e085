import { describe, expect, test } from "vitest";
import { factsOn } from "../../../bff/modules/mail/links";
import { configWith } from "../../../bff/platform/config";
import { apiOf, dataOf } from "../../helpers/api";
import { makeTestApp } from "../../helpers/app";
import { signIn } from "../../helpers/customers";
import { cards, order, passDays, payWithCard } from "../../helpers/payments";

type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

/**
 * A customer whose 1-day trial was paid and renewed: a renewal notice with its cancel link,
 * then a payment_succeeded message with the renewal's receipt link, as the outbox shows them.
 */
async function renewedCustomer(world: TestApp, email: string) {
  const customer = await signIn(world.app, email, { period: 1 });
  const widget = await order(world.app, customer, 1, 1);
  expect((await payWithCard(world.app, widget.invoiceId, cards.success)).success).toBe(true);
  await passDays(world.app, 1.5);
  const outbox = await dataOf(apiOf(world.app).dev.mail.get({ query: { to: email } }));
  const only = (kind: string) => {
    const found = outbox.filter((message) => message.kind === kind);
    expect(found, kind).toHaveLength(1);
    return found.map((message) => `${message.text}\n${message.html}`).join("\n");
  };
  return { notice: only("renewal_notice"), receipts: only("payment_succeeded") };
}

const receiptLinks = (text: string) => [
  ...text.matchAll(/(https?:\/\/[^\s"<]+)\/api\/profile\/payments\/\d+\/receipt/g),
];

describe("links in mails are built on the public origin of the app that sends them", () => {
  test("two apps in one process, each with its own origin, name it in the cancel and receipt links", async () => {
    const first = await makeTestApp({ PUBLIC_URL: "https://first.kannt.test" });
    const second = await makeTestApp({ PUBLIC_URL: "https://second.kannt.test" });
    const [ofFirst, ofSecond] = await Promise.all([
      renewedCustomer(first, "origins.first@example.com"),
      renewedCustomer(second, "origins.second@example.com"),
    ]);
    for (const [mails, origin, other] of [
      [ofFirst, "https://first.kannt.test", "second.kannt.test"],
      [ofSecond, "https://second.kannt.test", "first.kannt.test"],
    ] as const) {
      expect(mails.notice).toContain(`${origin}/cancel?token=`);
      const links = receiptLinks(mails.receipts);
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) expect(link[1]).toBe(origin);
      expect(`${mails.notice}${mails.receipts}`).not.toContain(other);
    }
  });

  test("with PORT=0, the origin known once listening names both the renewal notice's and the receipt's links", async () => {
    const world = await makeTestApp({ PORT: "0" });
    // What server.ts does once the port is known: the context gets a config with the origin.
    world.context.config = configWith(world.context.config, { publicUrl: "http://localhost:45678" });
    const mails = await renewedCustomer(world, "origins.port-zero@example.com");
    expect(mails.notice).toContain("http://localhost:45678/cancel?token=");
    const links = receiptLinks(mails.receipts);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link[1]).toBe("http://localhost:45678");
    expect(`${mails.notice}${mails.receipts}`).not.toContain("localhost:0/");
  });

  test("a receipt queued with the whole URL, before links were paths, keeps the URL it was queued with", () => {
    const facts = {
      charge: { amount: 15_000, currency: "RUB" as const },
      paidAt: 0,
      what: "subscription" as const,
      tariffMonths: 1,
      paidUntil: null,
      receiptUrl: "https://before.kannt.test/api/profile/payments/7/receipt",
    };
    expect(factsOn("https://now.kannt.test", "payment_succeeded", facts)).toEqual(facts);
    expect(
      factsOn("https://now.kannt.test", "payment_succeeded", {
        ...facts,
        receiptUrl: "/api/profile/payments/7/receipt",
      }).receiptUrl,
    ).toBe("https://now.kannt.test/api/profile/payments/7/receipt");
  });
});
