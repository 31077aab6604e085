import { expect, type Locator, type Page, test } from "@playwright/test";
import { blockingAtBothWidths, describeFinding } from "../../helpers/browser/axe";
import { layoutProblems } from "../../helpers/browser/layout";
import {
  holdButton,
  makeCustomer,
  payInWidget,
  signInThroughUi,
  uniqueEmail,
  useLanguage,
} from "../../helpers/browser/pages";

// The cabinet's Connect panel (DESIGN §8): per device, its subscription link as a QR code,
// as text to copy and as "open in app" links, a held reset, and this month's traffic.

const texts = {
  en: {
    connect: "Connect",
    connectNew: "Connect a new device",
    placeholder: "New device — waiting for the app",
    titleOf: (name: string) => `Connect: ${name}`,
    qrAlt: "QR code of this device's subscription link",
    link: "Subscription link",
    traffic: "This month: 0 kB received, 0 kB sent",
    copy: "Copy link",
    copied: "Copied to clipboard",
    copyFailed: "Could not copy the link; select it and copy by hand.",
    reset: "Reset link",
    linkReset: "A new link is made. The old one stops working within seconds.",
    close: "Close",
    pendingNote: /^The link holds a slot for half an hour\./,
    confirm: "I've added it",
    replaced: /^This link was replaced — /,
    confirmed: "Added: this device now has its slot.",
    freeSlots: (count: number) => `Free device slots: ${count}`,
    noSlot: /^Every device slot of your subscription is taken\./,
    addDevice: /^Add a device: \d+\s₽$/,
    slotCharge: /^One more device slot: (.+?) is charged now for the rest of the period/,
    deviceAdded: /^One more device slot is yours/,
    consentCharge: /automatically until I cancel/,
    consentOffer: /public offer/,
    pay: /^Pay 1\s₽$/,
  },
  ru: {
    connect: "Подключить",
    connectNew: "Подключить устройство",
    placeholder: "Новое устройство — ждём приложение",
    titleOf: (name: string) => `Подключение: ${name}`,
    qrAlt: "QR-код ссылки подписки этого устройства",
    link: "Ссылка подписки",
    traffic: "В этом месяце: получено 0 кБ, отправлено 0 кБ",
    copy: "Скопировать ссылку",
    copied: "Скопировано в буфер обмена",
    copyFailed: "Не удалось скопировать ссылку; выделите и скопируйте её вручную.",
    reset: "Сбросить ссылку",
    linkReset: "Новая ссылка создана. Старая перестанет работать через несколько секунд.",
    close: "Закрыть",
    pendingNote: /^Ссылка держит место полчаса\./,
    confirm: "Ссылка добавлена",
    replaced: /^Эта ссылка заменена — /,
    confirmed: "Готово: у этого устройства теперь есть своё место.",
    freeSlots: (count: number) => `Свободных мест для устройств: ${count}`,
    noSlot: /^Все места для устройств в вашей подписке заняты\./,
    addDevice: /^Ещё устройство: \d+\s₽$/,
    slotCharge: /^Ещё одно место для устройства: сейчас спишется (.+?) за остаток периода/,
    deviceAdded: /^Место для ещё одного устройства добавлено/,
    consentCharge: /автоматически, пока я не отменю подписку/,
    consentOffer: /публичной оферты/,
    pay: /^Оплатить 1\s₽$/,
  },
} as const;

const phone = { width: 390, height: 844 };
const laptop = { width: 1440, height: 900 };
const widths = [phone, laptop];

/** What an app sends with its first fetch of the link: it names the device. */
const appHeaders = { "user-agent": "Happ/3.1.2", "x-device-os": "Android 15", "x-device-model": "Pixel 8" };

const toast = (page: Page, text: string | RegExp) => page.locator(".toast").filter({ hasText: text });

/** The link the panel shows, after checking the QR image next to it is the server's SVG, drawn. */
async function shownLink(dialog: Locator, t: (typeof texts)["en" | "ru"]): Promise<string> {
  const qr = dialog.getByRole("img", { name: t.qrAlt });
  await expect(qr).toBeVisible();
  const src = (await qr.getAttribute("src")) ?? "";
  expect(src).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(Buffer.from(src.split(",")[1] ?? "", "base64").toString()).toMatch(/^<svg[\s>]/);
  expect(await qr.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  const link = await dialog.getByRole("textbox", { name: t.link }).inputValue();
  expect(link).toMatch(/^http:\/\/localhost:\d+\/sub\/[^/?#]+$/);
  return link;
}

for (const language of ["en", "ru"] as const) {
  const t = texts[language];

  test.describe(`device connect in ${language}`, () => {
    test.beforeEach(async ({ page }) => {
      await useLanguage(page, language);
    });

    for (const size of widths) {
      test(`at ${size.width} px: a new device gets a QR code and link to copy, and a held reset replaces the link`, async ({
        page,
        context,
      }) => {
        test.setTimeout(90_000);
        await page.setViewportSize(size);
        await context.grantPermissions(["clipboard-read", "clipboard-write"]);
        const email = uniqueEmail("connect");
        await makeCustomer(page, { email, status: "ACTIVE", language });
        await signInThroughUi(page, email);

        await page.getByRole("button", { name: t.connectNew }).click();
        const dialog = page.getByRole("dialog", { name: t.titleOf(t.placeholder) });
        await expect(dialog).toBeVisible();
        const first = await shownLink(dialog, t);
        await expect(dialog.getByTestId("device-traffic")).toHaveText(t.traffic);
        await expect(dialog.getByRole("link", { name: "Happ" })).toHaveAttribute(
          "href",
          `happ://add/${first}`,
        );
        await expect(dialog.getByRole("link", { name: "sing-box" })).toHaveAttribute(
          "href",
          `sing-box://import-remote-profile?url=${encodeURIComponent(first)}#Kannt`,
        );
        expect(await layoutProblems(page)).toEqual([]);

        await dialog.getByRole("button", { name: t.copy }).click();
        await expect(toast(page, t.copied)).toBeVisible();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);

        // The app on the device fetches the link: it works, and names the device.
        expect((await page.request.get(first, { headers: appHeaders })).status()).toBe(200);

        // A press shorter than the hold changes nothing.
        const reset = dialog.getByRole("button", { name: t.reset });
        await holdButton(page, reset, 800);
        await expect(dialog.getByRole("textbox", { name: t.link })).toHaveValue(first);
        await holdButton(page, reset);
        await expect(toast(page, t.linkReset)).toBeVisible();
        await expect(dialog.getByRole("textbox", { name: t.link })).not.toHaveValue(first);
        const second = await shownLink(dialog, t);
        // The old link no longer gives access: its apps read that it was replaced.
        const old = await page.request.get(first);
        expect(old.status()).toBe(200);
        expect(
          Buffer.from(old.headers().announce?.slice("base64:".length) ?? "", "base64").toString(),
        ).toMatch(t.replaced);
        expect((await page.request.get(second)).status()).toBe(200);

        // Escape closes it; the list is read again and shows what the app reported.
        await page.keyboard.press("Escape");
        await expect(dialog).toBeHidden();
        await expect(page.getByRole("button", { name: t.connectNew })).toBeFocused();
        await expect(page.getByText("Pixel 8", { exact: true })).toBeVisible();
        await expect(page.getByText(/^Android · /)).toBeVisible();
        await expect(page.getByText(t.placeholder)).toHaveCount(0);

        // The device's own Connect answers its current link.
        await page.getByRole("button", { name: t.connect, exact: true }).click();
        const again = page.getByRole("dialog", { name: t.titleOf("Pixel 8") });
        expect(await shownLink(again, t)).toBe(second);
      });
    }

    test("with every slot taken, the server's words and the hold to add a slot, which connects the new device", async ({
      page,
    }) => {
      // A purchase through the sandbox widget (so a card is saved to buy the slot with) and a hold.
      test.setTimeout(120_000);
      await page.setViewportSize(language === "ru" ? phone : laptop);
      await signInThroughUi(page, uniqueEmail("connect.full"));
      await page.getByRole("checkbox", { name: t.consentCharge }).check();
      await page.getByRole("checkbox", { name: t.consentOffer }).check();
      await page.getByRole("button", { name: t.pay }).click();
      await payInWidget(page, "4242 4242 4242 4242");
      await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");

      // The one slot the subscription has goes to a first device, added in its app.
      await page.getByRole("button", { name: t.connectNew }).click();
      let dialog = page.getByRole("dialog", { name: t.titleOf(t.placeholder) });
      await shownLink(dialog, t);
      await dialog.getByRole("button", { name: t.confirm }).click();
      await expect(toast(page, t.confirmed)).toBeVisible();
      await expect(dialog.getByRole("button", { name: t.confirm })).toHaveCount(0);
      await dialog.getByRole("button", { name: t.close }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText(t.placeholder)).toHaveCount(1);

      await page.getByRole("button", { name: t.connectNew }).click();
      // No device yet to name: the panel is titled as the button that opened it.
      await expect(page.getByRole("dialog", { name: t.connectNew })).toBeVisible();
      dialog = page.getByRole("dialog");
      await expect(dialog.getByRole("alert")).toHaveText(t.noSlot);
      expect(await layoutProblems(page)).toEqual([]);
      // The exact amount is stated before the hold, and it is what the toast says was charged.
      const charge = (await dialog.getByTestId("slot-terms").textContent())?.match(t.slotCharge)?.[1];
      expect(charge).toMatch(/^\d+\s₽$/);
      await holdButton(page, dialog.getByRole("button", { name: t.addDevice }));
      await expect(toast(page, t.deviceAdded)).toContainText(charge ?? "none");
      await shownLink(dialog, t);
      await dialog.getByRole("button", { name: t.confirm }).click();
      // The first device's toast may still be up.
      await expect(toast(page, t.confirmed).last()).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(page.getByText(t.placeholder)).toHaveCount(2);
      await expect(page.getByTestId("available-devices")).toContainText("0");
    });

    test("closed unused, Connect gives the slot back: opened again, the same link and no slot to buy", async ({
      page,
    }) => {
      test.setTimeout(90_000);
      await page.setViewportSize(language === "ru" ? phone : laptop);
      const email = uniqueEmail("connect.unused");
      await makeCustomer(page, { email, status: "ACTIVE", language });
      await signInThroughUi(page, email);
      await expect(page.getByTestId("available-devices")).toHaveText(t.freeSlots(1));

      await page.getByRole("button", { name: t.connectNew }).click();
      let dialog = page.getByRole("dialog", { name: t.titleOf(t.placeholder) });
      const first = await shownLink(dialog, t);
      await expect(dialog.getByText(t.pendingNote)).toBeVisible();
      await expect(dialog.getByRole("button", { name: t.confirm })).toBeVisible();
      const blocking = await blockingAtBothWidths(page);
      expect(blocking.map(describeFinding), blocking.map(describeFinding).join("\n")).toEqual([]);
      await dialog.getByRole("button", { name: t.close }).click();
      await expect(dialog).toBeHidden();
      // No "waiting for the app" entry is left behind, and the slot is free again.
      await expect(page.getByText(t.placeholder)).toHaveCount(0);
      await expect(page.getByTestId("available-devices")).toHaveText(t.freeSlots(1));

      await page.getByRole("button", { name: t.connectNew }).click();
      dialog = page.getByRole("dialog", { name: t.titleOf(t.placeholder) });
      expect(await shownLink(dialog, t)).toBe(first);
      await expect(dialog.getByRole("alert")).toHaveCount(0);
      await expect(dialog.getByRole("button", { name: t.addDevice })).toHaveCount(0);
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("available-devices")).toHaveText(t.freeSlots(1));
    });

    test("the open panel passes axe at both widths, and a refused copy says so", async ({ page }) => {
      test.setTimeout(60_000);
      await page.addInitScript(() => {
        // A browser that refuses the clipboard (a permission denied, an insecure page).
        Object.defineProperty(navigator, "clipboard", {
          value: { writeText: () => Promise.reject(new DOMException("denied", "NotAllowedError")) },
        });
      });
      const email = uniqueEmail("connect.axe");
      await makeCustomer(page, {
        email,
        status: "ACTIVE",
        language,
        devices: 1,
        deviceNames: ["Android 15"],
      });
      await signInThroughUi(page, email);
      await page.getByRole("button", { name: t.connect, exact: true }).click();
      const dialog = page.getByRole("dialog", { name: t.titleOf("Android 15") });
      await shownLink(dialog, t);

      const blocking = await blockingAtBothWidths(page);
      expect(blocking.map(describeFinding), blocking.map(describeFinding).join("\n")).toEqual([]);
      for (const size of widths) {
        await page.setViewportSize(size);
        expect(await layoutProblems(page), `${size.width} px`).toEqual([]);
      }

      await dialog.getByRole("button", { name: t.copy }).click();
      await expect(toast(page, t.copyFailed)).toBeVisible();
    });
  });
}

test("in the app's web view (/mobileProfile) a device is connected the same way", async ({ page }) => {
  test.setTimeout(60_000);
  const t = texts.en;
  await useLanguage(page, "en");
  await page.setViewportSize(phone);
  const email = uniqueEmail("connect.mobile");
  await makeCustomer(page, { email, status: "ACTIVE", language: "en" });
  const token = await page.request.post("/api/dev/idp/token", { data: { email, provider: "google.com" } });
  expect(token.status()).toBe(200);
  const { credential, ...fields } = (await token.json()) as Record<string, string>;
  await page.goto(`/mobileProfile?${new URLSearchParams(fields)}#credential=${credential}`);
  // A browser that holds no account asks before taking the arriving one (DESIGN §12).
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: t.connectNew }).click();
  const dialog = page.getByRole("dialog", { name: t.titleOf(t.placeholder) });
  await shownLink(dialog, t);
  expect(await layoutProblems(page)).toEqual([]);
  await dialog.getByRole("button", { name: t.confirm }).click();
  await expect(toast(page, t.confirmed)).toBeVisible();
  await dialog.getByRole("button", { name: t.close }).click();
  // The dialog's title names the device too: the list is read once the dialog is gone.
  await expect(dialog).toBeHidden();
  await expect(page.getByText(t.placeholder, { exact: true })).toBeVisible();
});
