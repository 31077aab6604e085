import type { LocalizedText } from "../../platform/errors";

/** What the access calls say to a customer, in each interface language. */
export const accessWords = {
  noAccess: {
    en: "There is no active subscription to connect a device to. Renew it in the cabinet first.",
    ru: "Нет активной подписки, к которой можно подключить устройство. Сначала продлите её в личном кабинете.",
    zh: "没有可连接设备的有效订阅。请先在个人中心续订。",
    kk: "Құрылғыны қосатын белсенді жазылым жоқ. Алдымен оны жеке кабинетте ұзартыңыз.",
  },
  noFreeSlot: {
    en: "Every device slot of your subscription is taken. Add a slot, or unlink a device you no longer use.",
    ru: "Все места для устройств в вашей подписке заняты. Добавьте место или отвяжите устройство, которым больше не пользуетесь.",
    zh: "您订阅中的所有设备名额都已占用。请增加名额，或解绑不再使用的设备。",
    kk: "Жазылымыңыздағы барлық құрылғы орындары бос емес. Орын қосыңыз немесе енді пайдаланбайтын құрылғыны ажыратыңыз.",
  },
  notAttached: {
    en: "This device is not attached to your account.",
    ru: "Это устройство не привязано к вашему аккаунту.",
    zh: "此设备未绑定到您的账户。",
    kk: "Бұл құрылғы аккаунтыңызға тіркелмеген.",
  },
} satisfies Record<string, LocalizedText>;
