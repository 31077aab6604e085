import { expect, type Page, type Response, test } from "@playwright/test";
import { signInThroughUi, uniqueEmail, useLanguage } from "../../helpers/browser/pages";
import { testTimeZone } from "../../helpers/browser/purchase-helpers";

// DESIGN §6, SBP on the purchase screens: "СБП" beside the card for a purchase in roubles; a
// desktop shows the QR (with the amount and its end), a phone the button that opens the
// bank's app; then the screen waits for the bank and says what happened. The payer's bank is
// the sandbox's page for the QR (/dev-sbp?qr=…), opened as the payer's phone would open it.
test.use({ timezoneId: testTimeZone });

type SbpOrder = { sbp: { qrUrl: string; expiresAt: string } };

/** The order the pay button sent, and its answer (the QR's link is what a phone would scan). */
async function payBySbp(
  page: Page,
  payButton: RegExp,
): Promise<{ body: Record<string, unknown>; order: SbpOrder }> {
  const answered = page.waitForResponse(
    (response: Response) => new URL(response.url()).pathname === "/api/shop/order",
  );
  await page.getByRole("button", { name: payButton }).click();
  const response = await answered;
  expect(response.status(), await response.text()).toBe(200);
  return { body: response.request().postDataJSON(), order: (await response.json()) as SbpOrder };
}

/** The payer's bank app: the sandbox's page for the QR, paying or declining it. */
async function answerAtBank(bank: Page, button: string, outcome: RegExp) {
  await bank.getByRole("button", { name: button, exact: true }).click();
  await expect(bank.getByRole("status")).toContainText(outcome, { timeout: outcomeMs });
}

/**
 * The bank's notification, the screen's next question (every 2 s) and, when paid, the page's
 * reload: longer than one expectation's default on a busy machine.
 */
const outcomeMs = 20_000;

const moscowTime = (iso: string) =>
  new Intl.DateTimeFormat("ru", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: testTimeZone,
  }).format(new Date(iso));

test("desktop, in Russian: the QR with its amount and end; the payer's bank pays it; the cabinet says paid", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await useLanguage(page, "ru");
  await signInThroughUi(page, uniqueEmail("sbp.desktop"));
  await page.getByRole("radio", { name: "СБП" }).check();
  // Saved for renewals by default, as a card is; the consents stay the card's.
  await expect(page.getByRole("checkbox", { name: /автоплатёж по СБП/ })).toBeChecked();
  await page.getByRole("checkbox", { name: /автоматически, пока я не отменю/ }).check();
  await page.getByRole("checkbox", { name: /публичной оферты/ }).check();
  const { body, order } = await payBySbp(page, /^Оплатить 1\s₽$/);
  expect(body).toMatchObject({ method: "sbp", saveMethod: true, tariff: 1 });

  const sbp = page.getByRole("region", { name: "СБП" });
  await expect(sbp.getByRole("img", { name: /QR-код СБП на 1\s₽/ })).toBeVisible();
  await expect(sbp.getByRole("link", { name: "Открыть приложение банка" })).toBeHidden();
  await expect(sbp).toContainText(`Код действует до ${moscowTime(order.sbp.expiresAt)}.`);
  await expect(sbp.getByRole("status")).toHaveText("Ждём подтверждения оплаты от вашего банка…");

  const bank = await page.context().newPage();
  await bank.goto(order.sbp.qrUrl);
  await answerAtBank(bank, "Оплатить", /Оплачено/);
  await bank.close();
  await expect(page.getByText("Платёж получен. Подписка оформлена, доступ уже открыт.")).toBeVisible({
    timeout: outcomeMs,
  });
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
  // The history names the method, as the receipt does.
  const history = page.getByRole("region", { name: "История платежей" });
  await expect(history.getByRole("row").filter({ hasText: "Первый платёж" })).toContainText("Оплачен · СБП");
});

test("phone width, in Kazakh (paying in roubles): the button opens the bank's page; paid there, the cabinet says so", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // Signed up in Russian, so the account pays in roubles, then read in Kazakh.
  await useLanguage(page, "ru");
  await signInThroughUi(page, uniqueEmail("sbp.phone"));
  await page.getByRole("button", { name: "KK" }).click();
  await page.getByRole("radio", { name: "СБП" }).check();
  await page.getByRole("checkbox", { name: /автоматты түрде/ }).check();
  await page.getByRole("checkbox", { name: /жария оферта/ }).check();
  await payBySbp(page, /^1\s₽ төлеу$/);

  const sbp = page.getByRole("region", { name: "СБП" });
  await expect(sbp.getByRole("img")).toBeHidden();
  const popup = page.waitForEvent("popup");
  await sbp.getByRole("link", { name: "Банк қосымшасын ашу" }).click();
  const bank = await popup;
  await answerAtBank(bank, "Төлеу", /Төленді/);
  await bank.close();
  await expect(page.getByText("Төлем қабылданды. Жазылым рәсімделді, қолжетімділік ашық.")).toBeVisible({
    timeout: outcomeMs,
  });
  await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
});

test("/instantPay: no SBP in tenge; the phone a terminal asks for is checked; the bank declines and the screen says why, with a new QR or the card", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await useLanguage(page, "kk");
  await page.goto("/instantPay");
  await expect(page.getByTestId("instant-first")).toContainText("₸");
  await expect(page.getByRole("radio", { name: "СБП" })).toHaveCount(0);
  // As on a terminal whose category needs the payer's phone (SBP_PAYER_PHONE=required).
  await page.route("**/api/payments/settings?*", async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), sbpNeedsPhone: true } });
  });
  await page.getByRole("button", { name: "RU" }).click();
  await page.getByRole("radio", { name: "СБП" }).check();
  await page.getByRole("checkbox", { name: /автоматически, пока я не отменю/ }).check();
  await page.getByRole("checkbox", { name: /публичной оферты/ }).check();
  const phone = page.getByRole("textbox", { name: "Телефон плательщика" });
  await phone.fill("+7 912 345");
  await page.getByRole("button", { name: /^Оплатить 1\s₽$/ }).click();
  await expect(page.getByRole("alert")).toHaveText(/\+7 и 10 цифр/);
  await expect(phone).toHaveAttribute("aria-invalid", "true");
  await phone.fill("8 (912) 345-67-89");
  const { body, order } = await payBySbp(page, /^Оплатить 1\s₽$/);
  expect(body).toMatchObject({ method: "sbp", payerPhone: "+79123456789", prepaidToken: expect.any(String) });

  // The server not answering is said, and the wait goes on.
  await page.route("**/api/shop/orderStatus", (route) => route.fulfill({ status: 500, body: "{}" }));
  await expect(page.getByRole("alert")).toHaveText("Нет связи с сервером. Пробуем снова.");
  await page.unroute("**/api/shop/orderStatus");

  const bank = await page.context().newPage();
  await bank.goto(order.sbp.qrUrl);
  await answerAtBank(bank, "Отклонить", /отклонили/);
  await bank.close();
  await expect(page.getByRole("alert")).toHaveText(
    "Банк отклонил оплату через СБП, деньги не списаны. Попробуйте ещё раз или оплатите картой.",
    { timeout: outcomeMs },
  );
  const again = await payBySbp(page, /^Новый QR-код$/);
  expect(again.order.sbp.qrUrl).not.toBe(order.sbp.qrUrl);
  await expect(page.getByRole("img", { name: /QR-код СБП/ })).toBeVisible();
  await page.getByRole("button", { name: "Оплатить картой" }).click();
  await expect(page.getByRole("radio", { name: "Картой" })).toBeChecked();
  await expect(page.getByRole("button", { name: /^Оплатить 1\s₽$/ })).toBeEnabled();
});
