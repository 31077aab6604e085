import type { SessionKey } from "./storage-keys";

/**
 * A fresh random value for one sign-in attempt (Yandex `state`, Google `nonce`), kept
 * in this tab's sessionStorage until the provider's answer comes back. Without it, a
 * page could push its own account's credential into this browser (login CSRF).
 */
export function startSignInAttempt(key: SessionKey): string {
  const value = [...crypto.getRandomValues(new Uint8Array(16))]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // Without storage the answer cannot be matched and will be refused; nothing else to do.
  }
  return value;
}

/**
 * Whether `returned` is the value this tab's attempt started with. The value is spent
 * either way, so one answer can never be replayed into a second sign-in.
 */
export function spendSignInAttempt(key: SessionKey, returned: string | null | undefined): boolean {
  let expected: string | null = null;
  try {
    expected = sessionStorage.getItem(key);
    sessionStorage.removeItem(key);
  } catch {
    return false;
  }
  return Boolean(expected) && returned === expected;
}
