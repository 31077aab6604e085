import type { Fact } from "./parts";
import { ActionButton, Facts, Paragraph, WrittenLink } from "./parts";
import type { MailTemplate } from "./template";

/** A charge went through: what it paid for, until when, and its receipt. */
export const paymentSucceeded: MailTemplate<"payment_succeeded"> = ({ data, words }) => {
  const say = words.of("payment_succeeded");
  const amount = words.money(data.charge);
  const purpose =
    data.what === "device"
      ? say("device")
      : data.tariffMonths === null
        ? say("subscription")
        : say("subscriptionPlan", { plan: words.months(data.tariffMonths) });
  const facts: Fact[] = [
    [say("amount"), amount],
    [say("date"), words.date(data.paidAt)],
    [say("purpose"), purpose],
  ];
  if (data.paidUntil !== null) facts.push([say("paidUntil"), words.moment(data.paidUntil)]);
  return {
    subject: say("subject", { amount }),
    heading: say("heading"),
    preview: say("intro"),
    body: (
      <>
        <Paragraph>{say("intro")}</Paragraph>
        <Facts facts={facts} />
        <ActionButton href={data.receiptUrl}>{say("receiptButton")}</ActionButton>
        <WrittenLink label={say("receiptLink")} href={data.receiptUrl} colon={words.colon} />
      </>
    ),
  };
};
