import type { MailTexts } from "./types";

const rules = new Intl.PluralRules("ru");
/** "1 день", "2 дня", "5 дней": Russian nouns after a number take one of three forms. */
const plural = (count: number, one: string, few: string, many: string) => {
  const rule = rules.select(count);
  return `${count} ${rule === "one" ? one : rule === "few" ? few : many}`;
};

/** A date ends in "г.", so a sentence that ends with one takes no second full stop. */
const sentence = (text: string) => (text.endsWith(".") ? text : `${text}.`);

export const ru: MailTexts = {
  locale: "ru",
  timeZone: "Europe/Moscow",
  atZone: (dateTime) => `${dateTime} по московскому времени`,
  colon: ": ",
  days: (count) => plural(count, "день", "дня", "дней"),
  months: (count) => plural(count, "месяц", "месяца", "месяцев"),
  card: (lastFour) => `•••• ${lastFour}`,

  layout: {
    cabinetButton: "Открыть личный кабинет",
    cabinetLink: "Личный кабинет",
    why: "Это служебное письмо: вы получили его, потому что у вас есть подписка Kannt.",
    questions: "Остались вопросы? Напишите нам:",
  },

  trial_started: {
    subject: ({ day, amount }) => `Пробный период Kannt начался: ${day} спишем ${amount}`,
    heading: "Пробный период начался",
    intro: ({ days }) =>
      `Пробный период длится ${days}. Когда он закончится, подписка продлится автоматически и мы спишем с карты оплату за первый полный период.`,
    trial: "Пробный период",
    firstCharge: "Первое списание",
    amount: "Сумма",
    plan: "Тариф",
    reminder: "Перед каждым списанием мы присылаем напоминание с датой и суммой.",
    cancel: ({ moment, button }) =>
      `Передумали? Отмените подписку до ${moment}: откройте личный кабинет и нажмите «${button}». Тогда ничего не спишется, а доступ сохранится до конца пробного периода.`,
  },

  renewal_notice: {
    subject: ({ day, amount }) => `Подписка Kannt продлится ${day}: ${amount}`,
    heading: "Скоро продление подписки",
    intro: "Подписка Kannt скоро продлится, и мы спишем оплату с вашей карты:",
    chargeDate: "Дата списания",
    amount: "Сумма",
    plan: "Тариф",
    howToCancel: ({ button }) =>
      `Чтобы отменить подписку, до списания откройте ссылку ниже или личный кабинет и нажмите «${button}». Больше ничего не спишется, а доступ сохранится до конца оплаченного периода.`,
    cancelLink: "Ссылка для отмены (действует 7 дней)",
    keep: "Если хотите и дальше пользоваться Kannt, ничего делать не нужно.",
  },

  payment_succeeded: {
    subject: ({ amount }) => `Оплата Kannt получена: ${amount}`,
    heading: "Оплата получена",
    intro: "Спасибо! Платёж прошёл.",
    amount: "Сумма",
    date: "Дата",
    purpose: "Назначение",
    paidUntil: "Оплачено до",
    subscription: (plan) => (plan ? `Подписка Kannt на ${plan}` : "Подписка Kannt"),
    device: "Дополнительное устройство",
    receiptButton: "Открыть чек",
    receiptLink: "Чек",
  },

  payment_failed: {
    subject: ({ amount }) => `Не удалось списать ${amount} за Kannt`,
    heading: "Платёж отклонён",
    intro: "Мы не смогли списать с вашей карты оплату за подписку Kannt: платёж отклонён.",
    amount: "Сумма",
    date: "Дата",
    nextAttempt: "Следующая попытка",
    accessUntil: "Доступ до",
    noRetry: "Больше попыток списания не будет.",
    whatToDo:
      "Проверьте, что на карте достаточно денег и срок её действия не истёк. Или удалите эту карту в личном кабинете и оплатите подписку другой.",
  },

  subscription_canceled: {
    subject: "Подписка Kannt отменена",
    heading: "Автопродление отключено",
    intro: ({ date }) =>
      sentence(`Подписка Kannt отменена: больше ничего не спишется. Доступ сохранится до ${date}`),
    resume: ({ button }) =>
      `Передумали? До этого дня откройте личный кабинет и нажмите «${button}» — подписка будет продлеваться, как раньше.`,
  },

  card_removed: {
    subject: "Карта удалена из Kannt",
    heading: "Карта удалена",
    intro: (card) =>
      card ? `Карта ${card} удалена из наших записей.` : "Ваша карта удалена из наших записей.",
    noCharges: "Автопродление отключено, больше ничего не спишется.",
    accessUntil: ({ date }) => sentence(`Доступ сохранится до ${date}`),
    comeBack:
      "Чтобы вернуться, оформите подписку заново в личном кабинете: она оплачивается картой по цене тарифа, без нового пробного периода.",
    notYou: ({ email }) => `Если карту удалили не вы, сразу напишите нам на ${email}.`,
  },

  subscription_ended: {
    subject: "Подписка Kannt закончилась",
    heading: "Подписка закончилась",
    intro: ({ date }) => sentence(`Доступ к Kannt закончился ${date}`),
    comeBack:
      "Будем рады вашему возвращению: откройте личный кабинет и оформите подписку заново, оплатив её картой.",
  },

  refund_made: {
    subject: ({ amount }) => `Возврат от Kannt: ${amount}`,
    heading: "Возврат оформлен",
    intro: "Мы вернули на вашу карту деньги за подписку Kannt.",
    amount: "Сумма возврата",
    date: "Дата",
    payments: "Возвращено платежей",
    accessEnded: "Доступ к Kannt прекращён.",
    bankTime:
      "Деньги придут на карту, с которой вы платили. Срок зачисления зависит от банка и может составить до 60 дней.",
    comeBack: "Оформить подписку снова можно в любой момент в личном кабинете.",
  },
};
