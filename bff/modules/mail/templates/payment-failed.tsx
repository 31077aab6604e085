import type { Fact } from "./parts";
import { ActionButton, Facts, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/** A renewal was declined: when we try again (or that we will not), how long access lasts, what to do. */
export const paymentFailed: MailTemplate<"payment_failed"> = ({ data, words, links }) => {
  const say = words.of("payment_failed");
  const amount = words.money(data.charge);
  const facts: Fact[] = [
    [say("amount"), amount],
    [say("date"), words.date(data.failedAt)],
  ];
  if (data.nextRetryAt !== null) facts.push([say("nextAttempt"), words.date(data.nextRetryAt)]);
  if (data.accessUntil !== null) facts.push([say("accessUntil"), words.moment(data.accessUntil)]);
  return {
    subject: say("subject", { amount }),
    heading: say("heading"),
    preview: say("intro"),
    body: (
      <>
        <Paragraph>{say("intro")}</Paragraph>
        <Facts facts={facts} />
        {data.nextRetryAt === null && <Paragraph>{say("noRetry")}</Paragraph>}
        <Paragraph>{say("whatToDo")}</Paragraph>
        <ActionButton href={links.cabinetUrl}>{words.t("mail.common.cabinetButton")}</ActionButton>
      </>
    ),
  };
};
