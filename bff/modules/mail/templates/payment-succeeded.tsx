import type { Fact } from "./parts";
import { ActionButton, Facts, Paragraph, WrittenLink } from "./parts";
import type { MailTemplate } from "./template";

/** A charge went through: what it paid for, until when, and its receipt. */
export const paymentSucceeded: MailTemplate<"payment_succeeded"> = ({ data, texts, format }) => {
  const words = texts.payment_succeeded;
  const amount = format.money(data.charge);
  const purpose =
    data.what === "device"
      ? words.device
      : words.subscription(data.tariffMonths === null ? null : texts.months(data.tariffMonths));
  const facts: Fact[] = [
    [words.amount, amount],
    [words.date, format.date(data.paidAt)],
    [words.purpose, purpose],
  ];
  if (data.paidUntil !== null) facts.push([words.paidUntil, format.moment(data.paidUntil)]);
  return {
    subject: words.subject({ amount }),
    heading: words.heading,
    preview: words.intro,
    body: (
      <>
        <Paragraph>{words.intro}</Paragraph>
        <Facts facts={facts} />
        <ActionButton href={data.receiptUrl}>{words.receiptButton}</ActionButton>
        <WrittenLink label={words.receiptLink} href={data.receiptUrl} colon={texts.colon} />
      </>
    ),
  };
};
