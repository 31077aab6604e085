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
