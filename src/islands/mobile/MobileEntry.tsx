import { useCallback, useState } from "react";
import { AccountSwitchPrompt } from "../../components/react/AccountSwitchPrompt";
import { I18nBoundary } from "../../components/react/I18nBoundary";
import { PrepaidBindingDialog } from "../../components/react/PrepaidBindingDialog";
import { heldAccount, keepCurrentAccount, mustAskBeforeSwitching } from "../../stores/account-switch";
import { enterFromApp, readMobileArrival } from "../../stores/mobile-entry";
import { Cabinet } from "../cabinet/Cabinet";

type Props = { variant: "shop" | "profile" };

/**
 * /mobileShop and /mobileProfile: the native app opens these with email, uid,
 * photoURL and providerId in the query and the provider token in the fragment.
 * Another account than the one held here is only taken after the customer agrees.
 */
export function MobileEntry({ variant }: Props) {
  const [arrival] = useState(readMobileArrival);
  const [isAsking, setIsAsking] = useState(() => mustAskBeforeSwitching(arrival.identity));
  const prepare = useCallback(() => enterFromApp(variant, arrival), [variant, arrival]);

  if (isAsking) {
    return (
      <I18nBoundary>
        <main id="main" className="screen screen--center">
          <AccountSwitchPrompt
            currentEmail={heldAccount().email}
            arrivingEmail={arrival.identity.email}
            onSwitch={() => setIsAsking(false)}
            onKeep={keepCurrentAccount}
          />
        </main>
      </I18nBoundary>
    );
  }
  return (
    <>
      <Cabinet prepare={prepare} />
      <PrepaidBindingDialog />
    </>
  );
}
