import { useCallback, useState } from "react";
import { AccountSwitchPrompt } from "../../components/react/AccountSwitchPrompt";
import { ContinueAsPrompt } from "../../components/react/ContinueAsPrompt";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { PrepaidBindingSlot } from "../../components/react/PrepaidBindingSlot";
import {
  declineArrivingAccount,
  entryQuestionFor,
  heldAccount,
  keepCurrentAccount,
} from "../../stores/account-switch";
import { enterFromApp, readMobileArrival } from "../../stores/mobile-entry";
import { Cabinet } from "../cabinet/Cabinet";

type Props = { variant: "shop" | "profile" };

/**
 * /mobileShop and /mobileProfile: the native app opens these with email, uid,
 * photoURL and providerId in the query and the provider token in the fragment.
 * Outside the app, the arriving account is only taken after the customer agrees:
 * "switch?" when another is held, "continue as?" when none is.
 */
export function MobileEntry({ variant }: Props) {
  const [arrival] = useState(readMobileArrival);
  const [question, setQuestion] = useState(() =>
    entryQuestionFor(arrival.identity, arrival.credential !== null),
  );
  const prepare = useCallback(() => enterFromApp(variant, arrival), [variant, arrival]);

  if (question !== "none") {
    return (
      <I18nBoundary>
        <main id="main" className="screen screen--center">
          {question === "switch" ? (
            <AccountSwitchPrompt
              currentEmail={heldAccount().email}
              arrivingEmail={arrival.identity.email}
              onSwitch={() => setQuestion("none")}
              onKeep={keepCurrentAccount}
            />
          ) : (
            <ContinueAsPrompt
              arrivingEmail={arrival.identity.email}
              onContinue={() => setQuestion("none")}
              onDecline={declineArrivingAccount}
            />
          )}
        </main>
      </I18nBoundary>
    );
  }
  return (
    <>
      <Cabinet prepare={prepare} />
      <PrepaidBindingSlot />
    </>
  );
}
