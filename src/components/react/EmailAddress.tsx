/**
 * An e-mail address that may wrap on a phone: first before the "@", and only when one
 * half alone is still wider than the line, inside it (`.email-address`), rather than at
 * any letter the browser picks. `translate="no"`: an address is not words to translate.
 */
export function EmailAddress({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  if (at <= 0)
    return (
      <span className="email-address" translate="no">
        {email}
      </span>
    );
  return (
    <span className="email-address" translate="no">
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </span>
  );
}

/** What to pass as `{{email}}` to a translation that `TextWithEmail` then shows. */
export const emailSlot = "\u0000";

/** A translated sentence whose `{{email}}` was `emailSlot`, with the address wrapping as above. */
export function TextWithEmail({ text, email }: { text: string; email: string }) {
  const [before, after = ""] = text.split(emailSlot);
  return (
    <>
      {before}
      <EmailAddress email={email} />
      {after}
    </>
  );
}
