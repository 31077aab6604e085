import { registerCustomer } from "./auth";
import { $needsSignIn, offerSignInInPlace } from "./cabinet";
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
 * account: store it, register when a token came, then show the cabinet. Without a
 * token the session already held is used; without one, or when the token is refused,
 * the page offers sign-in in place (the cabinet's signed-out state) rather than leaving.
 * Resolves whether the cabinet may load.
 */
export async function enterFromApp(variant: "shop" | "profile", arrival: MobileArrival): Promise<boolean> {
  if (variant === "shop") void preloadPaymentWidget();
  offerSignInInPlace();
  // An arrival without an identity (opened by hand, or back from sign-in) keeps the stored one.
  if (arrival.identity.email) rememberIdentity(arrival.identity);
  if (!arrival.credential) return true;
  const identity = { ...arrival.identity, credential: arrival.credential };
  const outcome = await registerCustomer(identity);
  if (outcome !== "signed-in") {
    history.replaceState(null, "", location.pathname);
    $needsSignIn.set(true);
    return false;
  }
  history.replaceState(null, "", location.pathname + location.search);
  await askToAttachPendingPurchase(identity);
  return true;
}
