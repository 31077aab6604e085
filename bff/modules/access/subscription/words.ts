import type { Language } from "../../../../core/languages";
import type { LocalizedText } from "../../../platform/errors";

/** The words a subscription shows in the customer's app, in their language. */
const ended: LocalizedText = {
  en: "Subscription ended — renew at {url}",
  ru: "Подписка закончилась — продлите на {url}",
  zh: "订阅已结束 — 请在 {url} 续订",
  kk: "Жазылым аяқталды — {url} сайтында жаңартыңыз",
};

const noServers: LocalizedText = {
  en: "No servers yet — refresh in a few minutes",
  ru: "Серверы ещё готовятся — обновите через несколько минут",
  zh: "服务器尚未就绪 — 请几分钟后刷新",
  kk: "Серверлер әлі дайындалуда — бірнеше минуттан кейін жаңартыңыз",
};

const newDevice: LocalizedText = {
  en: "New device",
  ru: "Новое устройство",
  zh: "新设备",
  kk: "Жаңа құрылғы",
};

export const subscriptionWords = {
  ended: (language: Language, cabinetUrl: string) => ended[language].replace("{url}", cabinetUrl),
  noServers: (language: Language) => noServers[language],
  newDevice: (language: Language) => newDevice[language],
};
