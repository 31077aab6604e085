/**
 * One mailbox, written as a bare address: `name@example.com`. Mail headers read far more
 * into an address field (a list split at commas or semicolons, a display name before
 * `<…>`, a quoted or commented part, a line break that starts a new header), so anything
 * that could be one of those is not an address here: a customer's e-mail must reach the
 * mail server as exactly one recipient, theirs. Letters outside ASCII stay allowed
 * (internationalised addresses and domains).
 */
const mailboxShape = /^[^@",;:<>()[\]\\]{1,64}@[^@",;:<>()[\]\\]+\.[^@",;:<>()[\]\\.][^@",;:<>()[\]\\]*$/u;
// Spaces of every kind, control characters and invisible format characters (bidi overrides).
const hiddenOrSpace = /[\p{Cc}\p{Cf}\p{Z}\s]/u;

export const maximumEmailLength = 254;

export function isSingleMailbox(address: string): boolean {
  return address.length <= maximumEmailLength && !hiddenOrSpace.test(address) && mailboxShape.test(address);
}
