import { ActionButton, Facts, Paragraph } from "./parts";
import type { MailTemplate } from "./template";

/** DESIGN §13(c): the trial's length and the exact moment and amount of the first full charge. */
export const trialStarted: MailTemplate<"trial_started"> = ({ data, words, links }) => {
  const say = words.of("trial_started");
  const amount = words.money(data.firstCharge);
  const moment = words.moment(data.firstChargeAt);
  const intro = say("intro", { days: words.days(data.trialDays) });
  const button = words.t("cabinet.cancelSubscription");
  // Kazakh would inflect the moment after "until" (its suffix follows the last sound), so its
  // sentence says "before the first charge" and leaves the moment to the facts above it.
  const cancel =
    words.language === "kk" ? say("cancelBeforeFirstCharge", { button }) : say("cancel", { moment, button });
  return {
    subject: say("subject", { day: words.day(data.firstChargeAt), amount }),
    heading: say("heading"),
    preview: intro,
    body: (
      <>
        <Paragraph>{intro}</Paragraph>
        <Facts
          facts={[
            [say("trial"), words.days(data.trialDays)],
            [say("firstCharge"), moment],
            [say("amount"), amount],
            [say("plan"), words.months(data.tariffMonths)],
          ]}
        />
        <Paragraph>{say("reminder")}</Paragraph>
        <Paragraph>{cancel}</Paragraph>
        <ActionButton href={links.cabinetUrl}>{words.t("mail.common.cabinetButton")}</ActionButton>
      </>
    ),
  };
};
