import { useStore } from "@nanostores/react";
import { lazy, Suspense } from "react";
import { $prepaidOffer, type PrepaidOffer } from "../../stores/prepaid-binding";

// Few visits end a sign-in with an anonymous purchase waiting, so the dialog's code is
// fetched only when one does.
const PrepaidBindingDialog = lazy(() =>
  import("./PrepaidBindingDialog").then((module) => ({ default: module.PrepaidBindingDialog })),
);

/** Where a screen may ask "attach this purchase to {e-mail}?": empty until there is an offer for it. */
export function PrepaidBindingSlot({ source = "sign-in" }: { source?: PrepaidOffer["source"] }) {
  const offer = useStore($prepaidOffer);
  if (offer?.source !== source) return null;
  return (
    <Suspense fallback={null}>
      <PrepaidBindingDialog source={source} />
    </Suspense>
  );
}
