import { registerCustomer } from "./auth";
import { type ProviderIdentity, rememberIdentity } from "./customer";
import { preloadPaymentWidget } from "./payment";
import { askToAttachPendingPurchase } from "./prepaid-binding";

export type MobileArrival = { identity: ProviderIdentity; credential: string | null };

/** What the native app opened the page with: the identity in the query, the provider token in the fragment. */
export function readMobileArrival(): MobileArrival {
  const query = new URLSearchParams(location.search);
  return {
    identity: {
      email: query.get("email") ?? "",
      uid: query.get("uid") ?? "",
      photoURL: query.get("photoURL") ?? "",
      providerId: query.get("providerId") ?? "",
    },
    credential: new URLSearchParams(location.hash.slice(1)).get("credential"),
  };
}

/**
 * /mobileShop and /mobileProfile, once the customer may switch to the arriving
 * account: store it, register when a token came (always on /mobileShop), then show
 * the cabinet; home on failure. Resolves whether the cabinet may load.
 */
export async function enterFromApp(variant: "shop" | "profile", arrival: MobileArrival): Promise<boolean> {
  if (variant === "shop") void preloadPaymentWidget();
  rememberIdentity(arrival.identity);
  if (variant === "profile" && !arrival.credential) return true;
  const identity = { ...arrival.identity, credential: arrival.credential ?? "" };
  const outcome = await registerCustomer(identity);
  if (outcome !== "signed-in") {
    location.assign("/");
    return false;
  }
  history.replaceState(null, "", location.pathname + location.search);
  await askToAttachPendingPurchase(identity);
  return true;
}
