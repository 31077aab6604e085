import { expect, test } from "@playwright/test";
import {
  continueInDemoPopup,
  makeCustomer,
  signInThroughUi,
  uniqueEmail,
  useLanguage,
} from "../../helpers/browser/pages";

const texts = {
  en: {
    noSubscription: "No active subscription",
    until: "Subscription until",
    purchase: "You have not bought a subscription yet",
    ended: /^Your subscription ended on /,
    endedOn: "Subscription ended on",
    referral: "Invite friends, pay less",
    nextBilling: "Next billing",
    cancelled: "Subscription cancelled",
    resume: "Resume subscription",
    cancelledToast: /^Subscription cancelled\. Nothing more will be charged; access stays open until .+\.$/,
    resumedToast: /^Subscription resumed\. Access continues, and .+ will be charged on .+\.$/,
    devices: "Devices",
    install: "Install the app",
    otherApps: "Any app that takes a subscription link works on iPhone, Windows, Mac and Android",
    notOutYet: /in development|coming soon/i,
    support: "Support 24/7",
    unlink: "Unlink",
    changeAccount: "Change account",
    cancelQuestion: "Are you sure you want to cancel your subscription?",
    cancelButton: "Cancel subscription",
    copy: "Copy link",
    copied: "Copied to clipboard",
  },
  ru: {
    noSubscription: "Нет активной подписки",
    until: "Подписка до",
    purchase: "Вы ещё не оформили подписку",
    ended: /^Ваша подписка закончилась /,
    endedOn: "Подписка закончилась",
    referral: "Приглашайте друзей — платите меньше",
    nextBilling: "Следующее списание",
    cancelled: "Подписка отменена",
    resume: "Возобновить подписку",
    cancelledToast: /^Подписка отменена\. Больше ничего списано не будет; доступ открыт до .+\.$/,
    resumedToast: /^Подписка возобновлена\. Доступ сохраняется, .+ будет списано .+\.$/,
    devices: "Устройства",
    install: "Установите приложение",
    otherApps: "На iPhone, Windows, Mac и Android подойдёт любое приложение, принимающее ссылку подписки",
    notOutYet: /в разработке|скоро появится/i,
    support: "Поддержка 24/7",
    unlink: "Отвязать",
    changeAccount: "Сменить аккаунт",
    cancelQuestion: "Вы уверены, что хотите отменить подписку?",
    cancelButton: "Отменить подписку",
    copy: "Скопировать ссылку",
    copied: "Скопировано в буфер обмена",
  },
} as const;

for (const language of ["en", "ru"] as const) {
  const t = texts[language];

  test.describe(`cabinet in ${language}`, () => {
    test.beforeEach(async ({ page }) => {
      await useLanguage(page, language);
    });

    test("signing in with Google through the demo provider lands on the cabinet", async ({ page }) => {
      const email = uniqueEmail("google");
      await signInThroughUi(page, email, "google.com");
      await expect(page.getByText(email)).toBeVisible();
      await expect(page.getByText(t.noSubscription)).toBeVisible();
      await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "red");
      await expect(page.getByRole("heading", { name: t.purchase })).toBeVisible();
      expect(
        await page.evaluate(() => [localStorage.getItem("email"), localStorage.getItem("isYandexAuth")]),
      ).toEqual([email, "false"]);
    });

    test("signing in with Yandex through the demo provider lands on the cabinet", async ({ page }) => {
      const email = uniqueEmail("yandex");
      await signInThroughUi(page, email, "yandex");
      await expect(page.getByText(email)).toBeVisible();
      expect(await page.evaluate(() => localStorage.getItem("isYandexAuth"))).toBe("true");
    });

    test("each subscription status renders its blocks", async ({ page }) => {
      const cases = [
        { status: "NOT_ACTIVE", dot: "red", shown: [t.purchase, t.support], hidden: [t.devices, t.referral] },
        // A former customer is told the subscription ended, not that they never bought one.
        { status: "EXPIRED", dot: "red", shown: [t.ended], hidden: [t.purchase, t.devices, t.nextBilling] },
        {
          status: "CANCELED_OVER",
          dot: "red",
          shown: [t.ended],
          hidden: [t.purchase, t.cancelled, t.devices],
        },
        {
          status: "CANCELED",
          dot: "amber",
          shown: [t.referral, t.cancelled, t.devices, t.install, t.support],
          hidden: [t.purchase, t.nextBilling],
        },
        {
          status: "ACTIVE",
          dot: "green",
          shown: [t.referral, t.nextBilling, t.devices, t.install, t.support],
          hidden: [t.purchase, t.cancelled],
        },
      ] as const;
      for (const { status, dot, shown, hidden } of cases) {
        const email = uniqueEmail(status.toLowerCase());
        await makeCustomer(page, { email, status });
        await page.context().clearCookies();
        await signInThroughUi(page, email);
        await expect(page.getByTestId("status-dot"), status).toHaveAttribute("data-status", dot);
        for (const heading of shown)
          await expect(page.getByRole("heading", { name: heading }), `${status}: ${heading}`).toBeVisible();
        for (const heading of hidden)
          await expect(page.getByRole("heading", { name: heading }), `${status}: ${heading}`).toHaveCount(0);
        const untilText = status === "NOT_ACTIVE" ? t.noSubscription : dot === "red" ? t.endedOn : t.until;
        await expect(page.getByText(untilText, { exact: false }).first()).toBeVisible();
        if (status !== "ACTIVE" && status !== "CANCELED") continue;
        // What is true of apps: any that takes the subscription link, on every platform.
        const apps = page.getByRole("region", { name: t.install });
        await expect(apps, status).toContainText(t.otherApps);
        for (const app of ["Happ", "Streisand", "FlClash", "Hiddify"])
          await expect(apps, status).toContainText(app);
        await expect(apps, status).not.toContainText(t.notOutYet);
        await expect(apps.getByRole("link"), status).toHaveAttribute("href", /play\.google\.com/);
      }
    });

    test("hold-to-unlink does nothing at 1 second and unlinks at 2 seconds", async ({ page }) => {
      const email = uniqueEmail("hold");
      // The page's timers run on a clock the test moves, so the holds last exactly 1 and 2.3
      // seconds however busy the machine is (a late mouse-up on a loaded machine made a
      // 1-second hold a 2-second one).
      await page.clock.install();
      await makeCustomer(page, { email, status: "ACTIVE", devices: 1 });
      await signInThroughUi(page, email);
      const unlink = page.getByRole("button", { name: t.unlink });
      // The mouse only reaches what is on screen: below the fold the press would land nowhere.
      await unlink.scrollIntoViewIfNeeded();
      const box = await unlink.boundingBox();
      if (!box) throw new Error("no unlink button");
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      // Paused a little ahead of the page's own time, read there: the page's clock is not the
      // test's (on a busy machine it was ahead of the test's Date.now() + 0.5 s).
      const pageNow = await page.evaluate(() => Date.now());
      await page.clock.pauseAt(pageNow + 5_000);
      await page.mouse.down();
      await page.clock.runFor(1_000);
      await page.mouse.up();
      await page.clock.runFor(1_500);
      await expect(unlink).toBeVisible();
      await page.mouse.down();
      await page.clock.runFor(2_300);
      await page.mouse.up();
      await page.clock.resume();
      await expect(unlink).toHaveCount(0);
      await expect(page.getByTestId("available-devices")).toContainText("1");
    });

    test("cancel on /cancel keeps access, shows the amber dot and the resume block", async ({ page }) => {
      const email = uniqueEmail("cancel");
      await makeCustomer(page, { email, status: "ACTIVE" });
      await signInThroughUi(page, email);
      await page.getByRole("link", { name: t.cancelButton }).click();
      await expect(page.getByRole("heading", { name: t.cancelQuestion })).toBeVisible();
      const hold = page.getByRole("button", { name: t.cancelButton });
      const box = await hold.boundingBox();
      if (!box) throw new Error("no cancel button");
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.waitForURL("**/profile", { timeout: 5_000 });
      await page.mouse.up();
      await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "amber");
      await expect(page.getByRole("heading", { name: t.cancelled })).toBeVisible();
      await expect(page.locator("#toasts").getByText(t.cancelledToast)).toBeVisible();
      await page.getByRole("button", { name: t.resume }).click();
      await expect(page.getByTestId("status-dot")).toHaveAttribute("data-status", "green");
      await expect(page.locator("#toasts").getByText(t.resumedToast)).toBeVisible();
      await page.goto("/cancel");
      await expect(page.getByRole("heading", { name: t.cancelQuestion })).toBeVisible();
    });

    test("/promo shows the invite QR and copies the link", async ({ page, context }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      const email = uniqueEmail("promo");
      await makeCustomer(page, { email, status: "ACTIVE" });
      await signInThroughUi(page, email);
      await page.goto("/promo");
      const qr = page.getByTestId("invite-qr");
      await expect(qr).toBeVisible();
      // The image has its size set before the PNG arrives; wait for the PNG itself.
      await expect.poll(() => qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(256);
      const link = (await page.getByTestId("invite-link").textContent()) ?? "";
      expect(link).toMatch(/\/\?token=[A-Za-z0-9_-]{11,}$/);
      await page.getByRole("button", { name: t.copy }).click();
      await expect(page.getByRole("status").filter({ hasText: t.copied })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    });

    test("change account returns home with local storage cleared and the session ended", async ({ page }) => {
      const email = uniqueEmail("switch");
      await signInThroughUi(page, email);
      await page.getByRole("button", { name: t.changeAccount }).click();
      await page.waitForURL((url) => url.pathname === "/" || /^\/(ru|en|zh|kk)\/$/.test(url.pathname));
      expect(await page.evaluate(() => localStorage.getItem("email"))).toBeNull();
      const profile = await page.request.post("/api/profile", { data: { email } });
      expect(profile.status()).toBe(401);
    });
  });
}

test("an invite link carries the referral code into sign-up", async ({ page, browser }) => {
  const inviter = uniqueEmail("inviter");
  await makeCustomer(page, { email: inviter, status: "ACTIVE" });
  await signInThroughUi(page, inviter);
  await page.goto("/promo");
  const link = (await page.getByTestId("invite-link").textContent()) ?? "";
  const friendContext = await browser.newContext();
  const friend = await friendContext.newPage();
  await friend.goto(new URL(link).pathname + new URL(link).search);
  await expect
    .poll(() => friend.evaluate(() => localStorage.getItem("promo")))
    .toBe(new URL(link).searchParams.get("token"));
  const friendEmail = uniqueEmail("friend");
  await signInThroughUi(friend, friendEmail);
  await makeCustomer(friend, { email: friendEmail, status: "ACTIVE" });
  await page.goto("/profile");
  await expect(page.getByText("Friends already give you 25% off.")).toBeVisible();
  await friendContext.close();
});

test("/login normalizes i and j as the spec says", async ({ page }) => {
  await page.goto("/login?i=abc&j=7&token=REF123");
  await expect(page.getByRole("button", { name: /Google/ })).toBeVisible();
  expect(
    await page.evaluate(() =>
      ["i", "j", "period", "tariff", "promo"].map((key) => localStorage.getItem(key)),
    ),
  ).toEqual(["5", "7", "5", "1", "REF123"]);
  await page.goto("/login?i=45&j=6");
  await expect(page.getByRole("button", { name: /Google/ })).toBeVisible();
  expect(
    await page.evaluate(() => ["i", "period", "tariff"].map((key) => localStorage.getItem(key))),
  ).toEqual(["45", "1", "6"]);
});

test("/yauth without a token says so in place of the screen", async ({ page }) => {
  await page.goto("/yauth");
  await expect(page.getByRole("alert")).toHaveText(/Access token not found in URL|Токен доступа не найден/);
});

test("/yauth with a token the provider does not know says the user info failed", async ({ page }) => {
  // A sign-in this tab started (its state comes back), answered with a token nobody issued.
  await page.goto("/login");
  await page.getByRole("button", { name: /Yandex|Яндекс/ }).click();
  await page.waitForURL("**/dev-idp?**");
  const state = new URL(page.url()).searchParams.get("state");
  await page.goto(`/yauth#access_token=not-a-real-token&state=${state}`);
  await expect(page.getByRole("alert")).toHaveText(
    /Failed to fetch user info|Не удалось получить данные пользователя/,
  );
});

test("a network failure during sign-in goes home with the failure toast", async ({ page }) => {
  await useLanguage(page, "ru");
  await page.route("**/api/register", (route) => route.abort("failed"));
  await page.goto("/login");
  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: /Google/ }).click();
  await continueInDemoPopup(await popupPromise, uniqueEmail("offline"));
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  await expect(page.getByRole("alert").filter({ hasText: "Не удалось авторизоваться!" })).toBeVisible();
});

test("the cabinet without a signed-in customer goes to sign-in and comes back after it", async ({ page }) => {
  await page.goto("/profile?from=mail");
  await page.waitForURL("**/login?next=%2Fprofile%3Ffrom%3Dmail");
  const popupPromise = page.waitForEvent("popup");
  await page.getByRole("button", { name: /Google/ }).click();
  await continueInDemoPopup(await popupPromise, uniqueEmail("returning"));
  await page.waitForURL("**/profile?from=mail");
  await expect(page.getByTestId("status-dot")).toBeVisible();
});
