import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "@playwright/test";
import {
  holdButton,
  makeCustomer,
  signInThroughUi,
  uniqueEmail,
  useLanguage,
} from "../../helpers/browser/pages";

/** Presses the button named `name` with the mouse for `milliseconds`, then releases it. */
const hold = (page: Page, name: string, milliseconds: number) =>
  holdButton(page, page.getByRole("button", { name }), milliseconds);

/** An ACTIVE customer, signed in through the UI, on the cabinet. */
async function activeCustomer(page: Page, name: string) {
  const made = await makeCustomer(page, { email: uniqueEmail(name), status: "ACTIVE", devices: 1 });
  await signInThroughUi(page, made.email);
  return made;
}

type Exported = {
  account: { email: string };
  subscriptions: { status: string }[];
  payments: unknown[];
  devices: unknown[];
};

test("an active customer downloads their data, then deletes the account and a new sign-in starts afresh", async ({
  page,
}) => {
  await useLanguage(page, "en");
  const { email, uid } = await activeCustomer(page, "data.delete");
  const block = page.getByRole("region", { name: "Your data" });

  const downloading = page.waitForEvent("download");
  await block.getByRole("button", { name: "Download my data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("kannt-my-data.json");
  const exported = JSON.parse(await readFile(await download.path(), "utf8")) as Exported;
  expect(exported.account.email).toBe(email);
  expect(exported.subscriptions.map((subscription) => subscription.status)).toEqual(["ACTIVE"]);
  expect(exported.payments.length).toBeGreaterThan(0);
  expect(exported.devices).toHaveLength(1);

  // What happens is said before the hold.
  for (const point of [
    "Your subscription is cancelled and nothing more will be charged.",
    "Access ends at once, even if part of a paid period is left.",
    "Your saved card, devices and connection logs are removed.",
    "The account cannot be restored: signing in again starts a new, empty account.",
    "Payments and receipts are kept, as the law requires.",
  ])
    await expect(block.getByRole("listitem").filter({ hasText: point })).toBeVisible();
  await expect(block.getByText("Hold to delete your account")).toBeVisible();

  await hold(page, "Delete my account", 2_300);
  await expect(page.getByRole("heading", { name: "Your account is deleted" })).toBeFocused();
  await expect(page.getByText(/^You are signed out, and nothing more will be charged\./)).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the home page" })).toHaveAttribute("href", "/");
  expect(await page.evaluate(() => localStorage.getItem("email"))).toBeNull();
  // The session is gone on the server too.
  const profile = await page.request.post("/api/profile", { data: { email, uid } });
  expect(profile.status()).toBe(401);

  await page.goto("/profile");
  await page.waitForURL("**/login?next=%2Fprofile");

  // The same Google account signs in to a new, empty account: no subscription, no payments.
  await signInThroughUi(page, email);
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole("heading", { name: "You have not bought a subscription yet" })).toBeVisible();
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "red");
  await expect(
    page.getByRole("region", { name: "Payment history" }).getByText("No payments yet."),
  ).toBeVisible();
});

test("a failed download and a deletion refused during a payment are said in place, in Russian, and nothing is lost", async ({
  page,
}) => {
  await useLanguage(page, "ru");
  const { email } = await activeCustomer(page, "data.refused");
  const block = page.getByRole("region", { name: "Ваши данные" });

  let answer = () => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  await page.route("**/api/profile/export", async (route) => {
    await answered;
    await route.fulfill({
      status: 500,
      contentType: "application/json",
      body: '{"success":false,"error":{"code":"internal","message":"Something went wrong on our side."}}',
    });
  });
  await block.getByRole("button", { name: "Скачать мои данные" }).click();
  // Busy while the call runs.
  await expect(block.getByRole("button", { name: "Готовим файл…" })).toHaveAttribute("aria-busy", "true");
  answer();
  await expect(block.getByRole("alert")).toHaveText(
    "Не удалось подготовить ваши данные. Попробуйте ещё раз.",
  );
  await page.unroute("**/api/profile/export");
  const downloading = page.waitForEvent("download");
  await block.getByRole("button", { name: "Скачать мои данные" }).click();
  expect((await downloading).suggestedFilename()).toBe("kannt-my-data.json");
  await expect(block.getByRole("alert")).toHaveCount(0);

  await page.route("**/api/profile/delete", (route) =>
    route.fulfill({
      status: 409,
      contentType: "application/json",
      body: '{"success":false,"error":{"code":"payment_pending","message":"A payment of yours is being processed."}}',
    }),
  );
  await hold(page, "Удалить аккаунт", 2_300);
  await expect(block.getByRole("alert")).toHaveText(
    "Сейчас обрабатывается платёж, поэтому аккаунт пока нельзя удалить. Попробуйте через несколько минут.",
  );
  await expect(page.getByRole("heading", { name: "Ваш аккаунт удалён" })).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem("email"))).toBe(email);

  // The account still works: the cabinet loads again with the subscription as it was.
  await page.reload();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByText("Следующее списание")).toBeVisible();
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
});
