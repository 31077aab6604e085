import { Facts, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/** Each way money goes back, in its own words: a card's bank may take weeks, SBP minutes. */
const wordsOfWay = {
  card: { intro: "intro", bankTime: "bankTime" },
  sbp: { intro: "introSbp", bankTime: "bankTimeSbp" },
  both: { intro: "introBoth", bankTime: "bankTimeBoth" },
} as const;

/** Money went back: how much, for how many payments, the way it goes and how long the bank may take. */
export const refundMade: MailTemplate<"refund_made"> = ({ data, words }) => {
  const say = words.of("refund_made");
  const amount = words.money(data.refund);
  const way = wordsOfWay[data.way ?? "card"];
  return {
    subject: say("subject", { amount }),
    heading: say("heading"),
    preview: say(way.intro),
    body: (
      <>
        <Paragraph>{say(way.intro)}</Paragraph>
        <Facts
          facts={[
            [say("amount"), amount],
            [say("date"), words.date(data.refundedAt)],
            [say("payments"), String(data.payments)],
          ]}
        />
        {data.accessEnded !== false && <Paragraph>{say("accessEnded")}</Paragraph>}
        <Paragraph>{say(way.bankTime)}</Paragraph>
        <Paragraph>{say("comeBack")}</Paragraph>
      </>
    ),
  };
};
