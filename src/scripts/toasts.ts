import { showQueuedToast } from "../lib/toast/toast-store";
import { mountToasts } from "../lib/toast/toast-view";

// Every page renders toasts the same way, including one queued by the previous page.
const toastContainer = document.getElementById("toasts");
if (toastContainer) mountToasts(toastContainer);
showQueuedToast();
