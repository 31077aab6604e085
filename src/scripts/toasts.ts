import { showQueuedToast } from "../lib/toast/toast-store";
import { mountToasts } from "../lib/toast/toast-view";

// Every page renders toasts the same way, including one queued by the previous page.
const toastContainer = document.getElementById("toasts");
if (toastContainer) {
  // Pages built once for every language carry each language's close label; use the page's.
  const labels = toastContainer.dataset.closeLabels;
  if (labels) {
    const label = (JSON.parse(labels) as Record<string, string>)[document.documentElement.lang];
    if (label) toastContainer.dataset.closeLabel = label;
  }
  mountToasts(toastContainer);
}
showQueuedToast();
