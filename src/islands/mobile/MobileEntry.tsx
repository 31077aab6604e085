import { useCallback } from "react";
import { registerCustomer } from "../../stores/auth";
import { rememberIdentity } from "../../stores/customer";
import { preloadPaymentWidget } from "../../stores/payment";
import { Cabinet } from "../cabinet/Cabinet";

type Props = { variant: "shop" | "profile" };

/**
 * /mobileShop and /mobileProfile: the native app opens these with email, uid,
 * photoURL and providerId in the query and the provider token in the fragment.
 * /mobileShop registers first (spinner until then, home on failure).
 */
export function MobileEntry({ variant }: Props) {
  const prepare = useCallback(async () => {
    if (variant === "shop") void preloadPaymentWidget();
    const query = new URLSearchParams(location.search);
    const identity = {
      email: query.get("email") ?? "",
      uid: query.get("uid") ?? "",
      photoURL: query.get("photoURL") ?? "",
      providerId: query.get("providerId") ?? "",
    };
    rememberIdentity(identity);
    const credential = new URLSearchParams(location.hash.slice(1)).get("credential");
    if (variant === "profile" && !credential) return true;
    const outcome = await registerCustomer({ ...identity, credential: credential ?? "" });
    if (outcome !== "signed-in") {
      location.assign("/");
      return false;
    }
    history.replaceState(null, "", location.pathname + location.search);
    return true;
  }, [variant]);
  return <Cabinet prepare={prepare} />;
}
