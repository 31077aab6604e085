import type { LimitKey } from "../../platform/attempt-limit";

/**
 * Staff login limits (DESIGN §12), each over 15 minutes: 5 wrong passwords per account
 * and address, 50 per account from all addresses, 20 per address over all accounts.
 */
export const loginLimits = { accountAndAddress: 5, account: 50, address: 20 } as const;
const windowMs = 15 * 60 * 1000;

export function loginLimitKeys(username: string, address: string): LimitKey[] {
  const account = username.trim().toLowerCase();
  return [
    { key: `login:account+address:${account}|${address}`, limit: loginLimits.accountAndAddress, windowMs },
    { key: `login:account:${account}`, limit: loginLimits.account, windowMs },
    { key: `login:address:${address}`, limit: loginLimits.address, windowMs },
  ];
}

export const tooManySignIns = (minutes: number) =>
  `Too many failed sign-ins. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
