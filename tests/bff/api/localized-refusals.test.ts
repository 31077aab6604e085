import { describe, expect, test } from "vitest";
import { createPromo } from "../../../bff/modules/promos/panel-promos";
import { withPeerAddress } from "../../../bff/platform/client-address";
import type { Language } from "../../../core/languages";
import { apiOf, dataOf, identityOf, refusalOf, sessionOf, staffOf } from "../../helpers/api";
import { makeTestApp, request } from "../../helpers/app";
import { asCustomer, fixture, signIn } from "../../helpers/customers";
import { makeOperator, tokensFor } from "../../helpers/operators";
import { cards, order, payWithCard } from "../../helpers/payments";

const { app, context } = await makeTestApp();
const api = apiOf(app);
const operator = await makeOperator(context, "promo.maker", "admin");
await createPromo(
  context.database,
  {
    promoCode: "ONCEONLY10",
    promoType: "DISCOUNT",
    isAvailable: true,
    discount: 0.2,
    expirationDate: "2099-01-01",
  },
  1,
  null,
  context.clock.now(),
);

const languages: Language[] = ["en", "ru", "zh", "kk"];

/** What each refusal says, in each language: the customer reads these on screen. */
const expected = {
  noCardToRemove: {
    en: "There is no saved card to remove; auto-renewal is already off.",
    ru: "Сохранённой карты нет, удалять нечего: автопродление уже отключено.",
    zh: "没有已保存的卡可以删除，自动续订已经关闭。",
    kk: "Сақталған карта жоқ, жоятын ештеңе жоқ: автоұзарту әлдеқашан өшірілген.",
  },
  nothingToCancel: {
    en: "There is no active subscription to cancel.",
    ru: "Нет активной подписки, которую можно отменить.",
    zh: "没有可取消的有效订阅。",
    kk: "Тоқтататын белсенді жазылым жоқ.",
  },
  cannotResume: {
    en: "Only a cancelled subscription that is still running can be resumed; buy a new one instead.",
    ru: "Возобновить можно только отменённую подписку, срок которой ещё не закончился. Оформите новую подписку.",
    zh: "只有已取消但仍在有效期内的订阅才能恢复，请购买新的订阅。",
    kk: "Тек тоқтатылған, бірақ мерзімі әлі бітпеген жазылымды қайта қосуға болады. Жаңа жазылым рәсімдеңіз.",
  },
  noCardToRenewWith: {
    en: "There is no saved card to renew with. Your access stays open until the end of the paid period; after that, subscribe again and pay with a card.",
    ru: "Нет сохранённой карты для продления. Доступ сохранится до конца оплаченного периода, а после этого оформите подписку заново и оплатите её картой.",
    zh: "没有可用于续订的已保存银行卡。您的访问权限将保留到已付费周期结束；之后请重新订阅并用卡支付。",
    kk: "Ұзартуға сақталған карта жоқ. Қолжетімділік төленген кезеңнің соңына дейін сақталады; одан кейін қайта жазылып, картамен төлеңіз.",
  },
  alreadyActive: {
    en: "You already have an active subscription.",
    ru: "У вас уже есть активная подписка.",
    zh: "您已有一个有效的订阅。",
    kk: "Сізде белсенді жазылым бар.",
  },
  prepaidAlreadyPaid: {
    en: "This purchase is already paid. Sign in to link it to your account.",
    ru: "Эта покупка уже оплачена. Войдите, чтобы привязать её к своему аккаунту.",
    zh: "此购买已付款。请登录，将其绑定到您的账户。",
    kk: "Бұл сатып алу төленіп қойған. Оны аккаунтыңызға тіркеу үшін кіріңіз.",
  },
  slotNeedsActive: {
    en: "Device slots can be added to an active subscription only.",
    ru: "Места для устройств можно добавить только к активной подписке.",
    zh: "只有有效的订阅才能增加设备名额。",
    kk: "Құрылғы орындарын тек белсенді жазылымға қосуға болады.",
  },
  slotNeedsCard: {
    en: "There is no saved card to charge; contact support.",
    ru: "Нет сохранённой карты для оплаты. Обратитесь в поддержку.",
    zh: "没有可扣款的已保存银行卡，请联系客服。",
    kk: "Төлем алатын сақталған карта жоқ; қолдау қызметіне хабарласыңыз.",
  },
  slotDeclined: {
    en: "The card was declined: there is not enough money on it. No slot was added.",
    ru: "Карта отклонена: на ней недостаточно средств. Место для устройства не добавлено.",
    zh: "银行卡被拒绝：卡内余额不足。未增加设备名额。",
    kk: "Карта қабылданбады: картада қаражат жеткіліксіз. Құрылғы орны қосылмады.",
  },
  unknownPromo: {
    en: "This promo code does not exist or has expired.",
    ru: "Такого промокода нет, или срок его действия истёк.",
    zh: "该优惠码不存在或已过期。",
    kk: "Мұндай промокод жоқ немесе оның мерзімі өтіп кеткен.",
  },
  usedPromo: {
    en: "You have already used this promo code.",
    ru: "Вы уже использовали этот промокод.",
    zh: "您已经使用过该优惠码。",
    kk: "Сіз бұл промокодты бұрын қолдандыңыз.",
  },
  deviceNotAttached: {
    en: "This device is not attached to your account.",
    ru: "Это устройство не привязано к вашему аккаунту.",
    zh: "此设备未绑定到您的账户。",
    kk: "Бұл құрылғы аккаунтыңызға тіркелмеген.",
  },
  noSuchReceipt: {
    en: "There is no such receipt in your account.",
    ru: "В вашем аккаунте нет такого чека.",
    zh: "您的账户中没有这张收据。",
    kk: "Аккаунтыңызда мұндай түбіртек жоқ.",
  },
} satisfies Record<string, Record<Language, string>>;

/** A refusal as the screen gets it: `success: false` beside its code and words. */
async function refused(call: Parameters<typeof refusalOf>[0]) {
  expect((await call).error?.value).toMatchObject({ success: false });
  return refusalOf(call);
}

/** The same read from a raw answer, for requests the client cannot send (a socket peer, a form body). */
async function refusedResponse(response: Response) {
  const body = (await response.json()) as { success: boolean; error: { code: string; message: string } };
  expect(body.success).toBe(false);
  return { status: response.status, code: body.error.code, message: body.error.message };
}

/** A customer registered with `language` (the browser's Accept-Language at sign-up). */
const customerIn = (language: Language, name: string) =>
  signIn(app, `${name}-${language}@example.com`, { headers: { "accept-language": language } });

/** A customer who paid the 1-unit first payment with `card`. */
async function payingCustomerIn(language: Language, name: string, card = cards.success) {
  const customer = await customerIn(language, name);
  expect((await payWithCard(app, (await order(app, customer)).invoiceId, card)).success).toBe(true);
  return customer;
}

describe.each(languages)("refusals to a customer registered in %s", (language) => {
  test("removing a card when none is saved: 409", async () => {
    const customer = await customerIn(language, "no-card");
    expect(await refused(api.profile.removeCard.post(identityOf(customer), sessionOf(customer)))).toEqual({
      status: 409,
      code: "no_saved_card",
      message: expected.noCardToRemove[language],
    });
  });

  test("cancelling with nothing to cancel and resuming what is not cancelled: 409", async () => {
    const customer = await customerIn(language, "nothing-running");
    expect(await refused(api.subscriptions.cancel.post(identityOf(customer), sessionOf(customer)))).toEqual({
      status: 409,
      code: "nothing_to_cancel",
      message: expected.nothingToCancel[language],
    });
    expect(await refused(api.subscriptions.resume.post(identityOf(customer), sessionOf(customer)))).toEqual({
      status: 409,
      code: "not_resumable",
      message: expected.cannotResume[language],
    });
  });

  test("resuming after removing the card, and ordering while access runs: 409", async () => {
    const customer = await payingCustomerIn(language, "card-removed");
    expect((await api.profile.removeCard.post(identityOf(customer), sessionOf(customer))).status).toBe(200);
    expect(await refused(api.subscriptions.resume.post(identityOf(customer), sessionOf(customer)))).toEqual({
      status: 409,
      code: "no_card_to_renew_with",
      message: expected.noCardToRenewWith[language],
    });
    expect(
      await refused(
        api.shop.order.post({ ...identityOf(customer), tariff: 1, period: 30 }, sessionOf(customer)),
      ),
    ).toEqual({
      status: 409,
      code: "subscription_already_active",
      message: expected.alreadyActive[language],
    });
  });

  test("adding a device slot: no active subscription, no saved card, a declined card: 409", async () => {
    const inactive = await customerIn(language, "slot-inactive");
    expect(await refused(api.profile.addDevice.post(identityOf(inactive), sessionOf(inactive)))).toEqual({
      status: 409,
      code: "slot_needs_active_subscription",
      message: expected.slotNeedsActive[language],
    });
    // A fixture's active subscription has no card on file.
    const withoutCard = await fixture(app, {
      email: `slot-no-card-${language}@example.com`,
      status: "ACTIVE",
      language,
    });
    const signedIn = await signIn(app, withoutCard.email);
    expect(await refused(api.profile.addDevice.post(identityOf(signedIn), sessionOf(signedIn)))).toEqual({
      status: 409,
      code: "slot_needs_saved_card",
      message: expected.slotNeedsCard[language],
    });
    const declining = await payingCustomerIn(language, "slot-declined", cards.firstThenDeclined);
    expect(await refused(api.profile.addDevice.post(identityOf(declining), sessionOf(declining)))).toEqual({
      status: 409,
      code: "card_declined_insufficient_funds",
      message: expected.slotDeclined[language],
    });
  });

  test("an unknown promo code is 404, one used already is 409", async () => {
    const customer = await customerIn(language, "promo");
    const applyPromo = (promoCode: string) =>
      api.shop.applyPromo.post({ ...identityOf(customer), promoCode }, sessionOf(customer));
    expect(await refused(applyPromo("NOSUCHCODE"))).toEqual({
      status: 404,
      code: "promo_unknown",
      message: expected.unknownPromo[language],
    });
    expect((await applyPromo("ONCEONLY10")).status).toBe(200);
    expect(await refused(applyPromo("ONCEONLY10"))).toEqual({
      status: 409,
      code: "promo_already_used",
      message: expected.usedPromo[language],
    });
  });

  test("detaching a device that is not attached, and a receipt that is not there: 404", async () => {
    const customer = await customerIn(language, "not-found");
    expect(
      await refused(
        api.profile.detachDevice.post(
          { ...identityOf(customer), deviceId: "no-such-device" },
          sessionOf(customer),
        ),
      ),
    ).toEqual({ status: 404, code: "device_not_attached", message: expected.deviceNotAttached[language] });
    const receipt = api.profile.payments({ id: 999999 }).receipt.get(sessionOf(customer));
    expect(await refused(receipt)).toEqual({
      status: 404,
      code: "receipt_not_found",
      message: expected.noSuchReceipt[language],
    });
  });
});

describe("whose language", () => {
  test("a signed-in customer is answered in the language they registered with, whatever the browser sends", async () => {
    const customer = await customerIn("zh", "browser-differs");
    const cancel = api.subscriptions.cancel.post(identityOf(customer), {
      headers: { cookie: `${customer.cookie}; i18next=ru`, "accept-language": "kk" },
    });
    expect((await refused(cancel)).message).toBe(expected.nothingToCancel.zh);
  });

  let purchases = 0;
  test.each(languages)("an anonymous buyer is answered in the browser's language (%s)", async (language) => {
    const prepaidToken = `${"5a4b3c".repeat(5)}${++purchases}_7_1`;
    const anonymousOrder = () =>
      api.shop.order.post(
        { prepaidToken, tariff: 1, period: 7 },
        { headers: { "accept-language": language } },
      );
    const first = await dataOf(anonymousOrder());
    expect((await payWithCard(app, first.invoiceId, cards.success)).success).toBe(true);
    expect(await refused(anonymousOrder())).toEqual({
      status: 409,
      code: "purchase_already_paid",
      message: expected.prepaidAlreadyPaid[language],
    });
  });

  const tooManyPromoCodes = {
    en: "Too many wrong promo codes. Try again in 60 minutes.",
    ru: "Слишком много неверных промокодов. Попробуйте снова через 60 минут.",
    zh: "输入错误的优惠码次数过多，请在 60 分钟后重试。",
    kk: "Қате промокод тым көп рет енгізілді. 60 минуттан кейін қайталап көріңіз.",
  } satisfies Record<Language, string>;

  test.each(languages)("the promo limit's 429 carries its minutes, worded in %s", async (language) => {
    const customer = await customerIn(language, "promo-guesser");
    for (let attempt = 0; attempt < 10; attempt++) {
      const wrong = await app.handle(
        withPeerAddress(
          asCustomer(customer, "/api/shop/applyPromo", { promoCode: `WRONG${attempt}` }),
          `198.51.${languages.indexOf(language)}.${attempt}`,
        ),
      );
      expect(wrong.status).toBe(404);
    }
    const blocked = await refusedResponse(
      await app.handle(
        withPeerAddress(
          asCustomer(customer, "/api/shop/applyPromo", { promoCode: "ONCEONLY10" }),
          `198.51.${languages.indexOf(language)}.99`,
        ),
      ),
    );
    expect(blocked).toEqual({
      status: 429,
      code: "too_many_promo_codes",
      message: tooManyPromoCodes[language],
    });
  });

  test("an operator is answered in the panel's language, like any visitor", async () => {
    const { accessToken } = await tokensFor(app, operator.username, operator.password);
    const headers = { ...staffOf(accessToken).headers, cookie: "i18next=kk" };
    const missing = api.panel.users.getUserById.post({}, { headers, query: { id: 999999 } });
    expect(await refused(missing)).toEqual({
      status: 404,
      code: "customer_not_found",
      message: "id 999999 бар клиент жоқ.",
    });
  });

  test("the gateway is a program and reads English, whatever its headers say", async () => {
    const unsigned = await app.handle(
      request("/api/payments/cloudpayments/pay", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "accept-language": "ru" },
        body: "TransactionId=1&Amount=1",
      }),
    );
    expect(await refusedResponse(unsigned)).toEqual({
      status: 401,
      code: "notification_unsigned",
      message: "The notification signature is missing or wrong.",
    });
  });

  test("a node agent is a program too", async () => {
    const unknownNode = api.nodes.allowlist.get({
      headers: { authorization: "Bearer no-such-key", "accept-language": "zh" },
    });
    expect(await refused(unknownNode)).toEqual({
      status: 401,
      code: "node_key_unknown",
      message: "Unknown node key.",
    });
  });
});

describe("a refund's Message is worded from the catalogue in the operator's language", () => {
  /** The refund preview's answer (always 200: `Success` says whether anything would go back). */
  async function previewIn(language: Language | undefined, body: { email: string; uid: string }) {
    const { accessToken } = await tokensFor(app, operator.username, operator.password);
    const preview = api.panel.refund.preview.post(body, {
      headers: {
        ...staffOf(accessToken).headers,
        ...(language ? { cookie: `i18next=${language}` } : {}),
      },
    });
    expect((await preview).status).toBe(200);
    return dataOf(preview);
  }

  const nothingRunning = {
    en: "Nothing to refund: the subscription is NOT_ACTIVE and no paid period is running. Nothing was changed.",
    ru: "Сейчас нечего возвращать. Подписка в статусе «Отсутствует», оплаченный период не идёт.",
    zh: "目前没有可退款的项目。订阅状态为“无”，当前没有进行中的付费期。",
    kk: "Қазір қайтаратын ештеңе жоқ. Жазылым күйі: «Жоқ», төленген кезең жүріп жатқан жоқ.",
  } satisfies Record<Language, string>;
  const unknownUid = {
    en: 'No customer has the uid "no-such-uid"; nothing was refunded.',
    ru: "Ничего не возвращено. Нет клиента с ID «no-such-uid».",
    zh: "未退款。没有 ID 为“no-such-uid”的客户。",
    kk: "Ештеңе қайтарылмады. «no-such-uid» ID-і бар клиент жоқ.",
  } satisfies Record<Language, string>;
  // A customer registered in Kazakh pays in tenge (10 ₸ first).
  const wouldReturn = {
    en: "A refund now returns 1\u00a0₽ (1 payment) and ends access at once. Nothing has been done yet.",
    ru: "Возврат сейчас вернёт 1\u00a0₽ (платежей: 1) и сразу прекратит доступ. Пока ничего не сделано.",
    zh: "现在退款将退回 1\u00a0₽（付款：1 笔），并立即终止访问。尚未执行任何操作。",
    kk: "Қазір қайтарсаңыз, 10\u00a0₸ қайтарылады (төлемдер: 1) және қолжетімділік бірден тоқтатылады. Әзірге ештеңе жасалған жоқ.",
  } satisfies Record<Language, string>;

  test.each(languages)("refusals and the preview in %s, the code beside the words", async (language) => {
    const neverPaid = await customerIn(language, "refund-never-paid");
    const refused = await previewIn(language, { email: neverPaid.email, uid: neverPaid.uid });
    expect(refused).toMatchObject({ Success: false, Message: nothingRunning[language] });
    expect(refused.reason?.code).toBe("notRunning");
    const unknown = await previewIn(language, { email: neverPaid.email, uid: "no-such-uid" });
    expect(unknown).toMatchObject({ Success: false, Message: unknownUid[language] });
    const paying = await payingCustomerIn(language, "refund-paid");
    expect(await previewIn(language, { email: paying.email, uid: paying.uid })).toMatchObject({
      Success: true,
      Message: wouldReturn[language],
    });
  });

  test("a caller that names no language reads the English Message", async () => {
    const neverPaid = await customerIn("ru", "refund-no-language");
    const refused = await previewIn(undefined, { email: neverPaid.email, uid: neverPaid.uid });
    expect(refused.Message).toBe(nothingRunning.en);
  });
});
