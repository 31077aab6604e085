import type { LimitKey } from "../../platform/attempt-limit";
import type { LocalizedText } from "../../platform/errors";
import { russianMinutes } from "../promos/promo-limits";

/**
 * Link changes a customer may make an hour: a new device, a reset link, an unlink. Each
 * one reaches every node (a core call per inbound, a socket sweep, the agent's saved
 * list), so a loop of them is load on the whole fleet; a person changes a few.
 */
export const linkChangesPerHour = 30;

export const linkChangeLimit = (userId: number): LimitKey[] => [
  { key: `access:links:${userId}`, limit: linkChangesPerHour, windowMs: 60 * 60 * 1000 },
];

export const tooManyLinkChanges = (minutes: number): LocalizedText => ({
  en: `Too many device changes in an hour. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  ru: `Слишком много изменений устройств за час. Попробуйте снова через ${minutes} ${russianMinutes(minutes)}.`,
  zh: `一小时内设备变更次数过多，请在 ${minutes} 分钟后重试。`,
  kk: `Бір сағатта құрылғы тым көп рет өзгертілді. ${minutes} минуттан кейін қайталап көріңіз.`,
});
