import { useStore } from "@nanostores/react";
import { $prepaidOffer, type PrepaidOffer } from "../../stores/prepaid-binding";
import { PrepaidBindingDialog } from "./PrepaidBindingDialog";

/** Where a screen may ask "attach this purchase to {e-mail}?": empty until there is an offer for it. */
export function PrepaidBindingSlot({ source = "sign-in" }: { source?: PrepaidOffer["source"] }) {
  const offer = useStore($prepaidOffer);
  if (offer?.source !== source) return null;
  return <PrepaidBindingDialog source={source} />;
}
