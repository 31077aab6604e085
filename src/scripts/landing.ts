import { storageKeys, writeStorage } from "../lib/storage-keys";
import { showToast } from "../lib/toast/toast-store";

// An invite link is the site root with ?token={referral code}; keep it for sign-up.
const token = new URLSearchParams(location.search).get("token");
if (token) writeStorage(storageKeys.promo, token);

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-toast]")) {
  button.addEventListener("click", () => showToast(button.dataset.toast ?? "", "info"));
}
