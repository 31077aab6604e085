import { expect, type Page, test } from "@playwright/test";
import { makeCustomer, signInThroughUi, uniqueEmail, useLanguage } from "../../helpers/browser/pages";
import { panelAdminTokens } from "../../helpers/browser/panel-admin";

// A device's name is what its app reported, and an app can report anything: it is shown as
// text in the cabinet and the panel, never as markup, and the panel marks it as the app's.

const hostile = "<img src=x onerror=alert(1)> Support: call +7 900";
/** Spec §9: a name over 23 characters is cut to 20 plus dots. */
const shortened = `${hostile.slice(0, 20)}...`;

const reportedByApp = { en: "(reported by the app)", ru: "(со слов приложения)" } as const;

/** An operator's token pair in storage, as the login form leaves it (the form is tested elsewhere). */
async function signedInOperator(page: Page) {
  const tokens = await panelAdminTokens();
  await page.evaluate((pair) => {
    localStorage.setItem("accessToken", pair.accessToken);
    localStorage.setItem("refreshToken", pair.refreshToken);
  }, tokens);
}

for (const language of ["en", "ru"] as const) {
  test(`a hostile device name reads as text in the cabinet and the panel, marked as the app's (${language})`, async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await useLanguage(page, language);
    const email = uniqueEmail("hostile.name");
    const { userId } = await makeCustomer(page, {
      email,
      status: "ACTIVE",
      language,
      devices: 1,
      deviceNames: [hostile],
    });

    await signInThroughUi(page, email);
    const inCabinet = page.getByText(shortened, { exact: true });
    await expect(inCabinet).toBeVisible();
    await expect(inCabinet).toHaveAttribute("title", hostile);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);

    await signedInOperator(page);
    await page.goto(`/panel-user?id=${userId}`);
    const cell = page.getByRole("cell", { name: `${shortened} ${reportedByApp[language]}` });
    await expect(cell).toBeVisible();
    await expect(cell.getByTitle(hostile)).toBeVisible();
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });
}
