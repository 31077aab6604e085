import type { Fact } from "./parts";
import { ActionButton, Facts, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/** A renewal was declined: when we try again (or that we will not), how long access lasts, what to do. */
export const paymentFailed: MailTemplate<"payment_failed"> = ({ data, texts, format, links }) => {
  const words = texts.payment_failed;
  const amount = format.money(data.charge);
  const facts: Fact[] = [
    [words.amount, amount],
    [words.date, format.date(data.failedAt)],
  ];
  if (data.nextRetryAt !== null) facts.push([words.nextAttempt, format.date(data.nextRetryAt)]);
  if (data.accessUntil !== null) facts.push([words.accessUntil, format.moment(data.accessUntil)]);
  return {
    subject: words.subject({ amount }),
    heading: words.heading,
    preview: words.intro,
    body: (
      <>
        <Paragraph>{words.intro}</Paragraph>
        <Facts facts={facts} />
        {data.nextRetryAt === null && <Paragraph>{words.noRetry}</Paragraph>}
        <Paragraph>{words.whatToDo}</Paragraph>
        <ActionButton href={links.cabinetUrl}>{texts.layout.cabinetButton}</ActionButton>
      </>
    ),
  };
};
