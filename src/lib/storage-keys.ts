/**
 * Every browser-storage key of the product, named exactly as the spec (§3) names
 * them; declared once so no screen misspells one.
 */
export const storageKeys = {
  accessToken: "accessToken",
  refreshToken: "refreshToken",
  selectedPerson: "selected_person",
  selectedPersonEmail: "selected_person_email",
  selectedPersonUid: "selected_person_uid",
  promo: "promo",
  referral: "referral",
  rawPeriod: "i",
  rawTariff: "j",
  period: "period",
  tariff: "tariff",
  email: "email",
  uid: "uid",
  userId: "userID",
  userPayToken: "userPayToken",
  payment: "payment",
  expirationDate: "expirationDate",
  subscriptionIsActive: "subscriptionIsActive",
  subscriptionStatus: "subscriptionStatus",
  photoUrl: "photoURL",
  photoUrlLegacy: "photoUrl",
  providerId: "providerId",
  isYandexAuth: "isYandexAuth",
  yandexToken: "yandex_token",
} as const;

export type StorageKey = (typeof storageKeys)[keyof typeof storageKeys];

/**
 * sessionStorage keys (this tab only, not in the spec): the random values that tie a
 * provider's answer to the sign-in attempt this tab started (DESIGN §12), the mark
 * that this visit came through a /login link with i and j (lib/consent-skip.ts), and the
 * SBP order this tab waits for (stores/sbp-payment.ts), so a reload or a return from the
 * bank's app goes on waiting.
 */
export const sessionKeys = {
  yandexState: "yandex_state",
  googleNonce: "google_nonce",
  offerLinkVisit: "offer_link_visit",
  sbpOrder: "sbp_order",
} as const;

export type SessionKey = (typeof sessionKeys)[keyof typeof sessionKeys];

/** sessionStorage that tolerates being unavailable, as readStorage does for localStorage. */
export function readSession(key: SessionKey): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeSession(key: SessionKey, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // Without it the wait lasts as long as the page; nothing else depends on it.
  }
}

export function removeSession(key: SessionKey): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}

/** localStorage that tolerates being unavailable (private modes, disabled storage). */
export function readStorage(key: StorageKey): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: StorageKey, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage may be full or blocked; the flow continues with what it has in memory.
  }
}

export function removeStorage(key: StorageKey): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}
