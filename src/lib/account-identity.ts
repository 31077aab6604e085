export type AccountKey = { email: string; uid: string };

const normalized = (email: string) => email.trim().toLowerCase();

/**
 * Whether an arriving identity is another account than the one this browser holds.
 * Nothing held, or nothing arriving, is never a switch. Accounts may share an e-mail
 * in any letter case across providers, so differing uids alone make another account.
 */
export function isAnotherAccount(held: AccountKey, arriving: AccountKey): boolean {
  const uidsDiffer = held.uid !== "" && arriving.uid !== "" && held.uid !== arriving.uid;
  const emailsDiffer =
    held.email.trim() !== "" &&
    arriving.email.trim() !== "" &&
    normalized(held.email) !== normalized(arriving.email);
  return uidsDiffer || emailsDiffer;
}

/** What an entry page asks before it takes the account a link brought (DESIGN §12). */
export type EntryQuestion = "switch" | "continue" | "none";

/**
 * Another account than the one held: switch? A credential with nothing held: continue as
 * the arriving account? Anyone can send a link, so a browser is asked either way; only the
 * native app, which opens these pages with its own signed-in account, goes straight on.
 * The same account arriving again is no question.
 */
export function entryQuestion(
  held: AccountKey,
  arriving: AccountKey,
  arrival: { hasCredential: boolean; isNativeApp: boolean },
): EntryQuestion {
  if (isAnotherAccount(held, arriving)) return "switch";
  const holdsNone = held.email.trim() === "" && held.uid === "";
  if (holdsNone && arrival.hasCredential && !arrival.isNativeApp) return "continue";
  return "none";
}
