import type { Database } from "../../../db/database";
import { clearAttempts, type LimitKey } from "../../platform/attempt-limit";

/**
 * Staff login limits (DESIGN §12), each over 15 minutes: 5 wrong passwords per account
 * and address, 50 per account from all addresses, 20 per address over all accounts.
 */
export const loginLimits = { accountAndAddress: 5, account: 50, address: 20 } as const;
const windowMs = 15 * 60 * 1000;

const accountOf = (username: string) => username.trim().toLowerCase();
const accountAndAddressPrefix = (account: string) => `login:account+address:${account}|`;
const accountKey = (account: string) => `login:account:${account}`;

/**
 * The per-account count is waived for an address with no recent failures: anyone can
 * fill it with wrong passwords, and it must not lock out the operator who knows theirs
 * (DESIGN §12). Guessing stays bounded: each such address gets one attempt before its own
 * counts are no longer clean, and the per-address counts are never waived.
 *
 * An account with a second factor gets no waiver (`isWaivable: false`): a password alone
 * no longer signs it in, its passkeys are not counted at all, so wrong passwords and wrong
 * codes from anywhere count against it, and a full count stops everyone.
 */
export function loginLimitKeys(
  username: string,
  address: string,
  { isWaivable = true }: { isWaivable?: boolean } = {},
): LimitKey[] {
  const account = accountOf(username);
  return [
    { key: `${accountAndAddressPrefix(account)}${address}`, limit: loginLimits.accountAndAddress, windowMs },
    { key: accountKey(account), limit: loginLimits.account, windowMs, waivedForCleanCallers: isWaivable },
    { key: `login:address:${address}`, limit: loginLimits.address, windowMs },
  ];
}

/** Forgets the account's wrong passwords, from everywhere (the CLI's `unlock`). */
export function clearLoginLocks(database: Database, username: string): Promise<void> {
  const account = accountOf(username);
  return clearAttempts(database, [accountKey(account)], [accountAndAddressPrefix(account)]);
}
