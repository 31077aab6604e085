import { expect, test } from "@playwright/test";
import { signInToPanel, useLanguage } from "../../helpers/browser/pages";

// DESIGN §14: the demo mailbox lists what the service queued for an address and shows a
// message as the customer would see it: its HTML in a sandboxed frame, or its plain text.
// The browser server queues one message at start (tests/helpers/e2e-server.ts); the mail
// worker delivers it to the embedded outbox.

const address = "mail.seed@example.com";

type OutboxMessage = { subject: string; text: string; html: string; status: string; kind: string };

async function seededMessage(request: import("@playwright/test").APIRequestContext) {
  const response = await request.get(`/api/dev/mail?to=${encodeURIComponent(address)}`);
  expect(response.status()).toBe(200);
  const [message] = (await response.json()) as OutboxMessage[];
  if (!message) throw new Error("the seeded message is missing");
  return message;
}

test.describe("demo mailbox", () => {
  test.beforeEach(async ({ page }) => {
    await useLanguage(page, "en");
  });

  test("lists a customer's message by address in any case and shows its HTML in a sandboxed frame and its text", async ({
    page,
  }) => {
    await expect.poll(async () => (await seededMessage(page.request)).status).toBe("sent");
    const message = await seededMessage(page.request);

    await page.goto("/dev-mail");
    await expect(page.getByRole("heading", { name: "Demo mailbox" })).toBeVisible();
    await page.getByLabel("E-mail address").fill(address.toUpperCase());
    await page.getByRole("button", { name: "Show messages" }).click();

    const list = page.getByRole("navigation", { name: "Messages" });
    const item = list.getByRole("button", { name: new RegExp(message.subject) });
    await expect(item).toContainText(message.kind);
    await expect(item).toContainText("Sent");
    await item.click();
    await expect(page.getByRole("heading", { level: 2, name: message.subject })).toBeVisible();

    const frame = page.locator("iframe.dev-mail__frame");
    // Every sandbox restriction: no scripts, no forms, an origin of its own.
    await expect(frame).toHaveAttribute("sandbox", "");
    const expectedText = await page.evaluate(
      (html) => new DOMParser().parseFromString(html, "text/html").body.textContent?.trim() ?? "",
      message.html,
    );
    expect(expectedText).not.toBe("");
    await expect(page.frameLocator("iframe.dev-mail__frame").locator("body")).toHaveText(expectedText);

    await page.getByRole("tab", { name: "Plain text" }).click();
    await expect(page.getByRole("tabpanel")).toContainText(message.text.split("\n")[0] ?? "");
    await expect(frame).toHaveCount(0);
  });

  test("an address with no mail says so", async ({ page }) => {
    await page.goto("/dev-mail?to=nobody.here%40example.com");
    await expect(page.getByText("No messages to nobody.here@example.com yet.")).toBeVisible();
  });

  test("the panel's customer page lists the messages sent to the customer and their delivery", async ({
    page,
  }) => {
    await expect.poll(async () => (await seededMessage(page.request)).status).toBe("sent");
    const message = await seededMessage(page.request);
    await signInToPanel(page);
    await page.waitForURL("**/panel-search");
    await page.getByLabel("Part of an e-mail").fill(address);
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: new RegExp(address) }).click();
    await page.waitForURL(/\/panel-user\?id=\d+$/);
    const messages = page.getByRole("region", { name: "Messages sent" });
    const row = messages.getByRole("row", { name: new RegExp(message.kind) });
    await expect(row).toContainText(message.subject);
    await expect(row).toContainText(/Sent .+ \d{2}:\d{2}/);
    await expect(row.getByRole("cell").nth(4)).toHaveText("1");
  });
});
