import { atom } from "nanostores";

export type ToastType = "info" | "success" | "warning" | "error";
export type ToastPosition = "top-right";
export type Toast = {
  id: number;
  type: ToastType;
  content: string;
  position: ToastPosition;
  autoClose: number;
};

/** Spec §9: toasts close by themselves after 5 s; a drag over 80% of the width dismisses. */
export const toastAutoCloseMs = 5000;
export const toastDragDismissRatio = 0.8;

export const $toasts = atom<readonly Toast[]>([]);

let nextId = 1;

export function showToast(content: string, type: ToastType = "info", autoClose = toastAutoCloseMs): number {
  const toast: Toast = { id: nextId++, type, content, position: "top-right", autoClose };
  $toasts.set([...$toasts.get(), toast]);
  return toast.id;
}

export function dismissToast(id: number): void {
  $toasts.set($toasts.get().filter((toast) => toast.id !== id));
}

const queuedToastKey = "kannt.queuedToast";

/** For a toast that must appear after a navigation (e.g. "sign-in failed" shown on /). */
export function queueToastForNextPage(content: string, type: ToastType = "info"): void {
  try {
    sessionStorage.setItem(queuedToastKey, JSON.stringify({ content, type }));
  } catch {
    // Without session storage the toast is lost; the navigation itself still happens.
  }
}

export function showQueuedToast(): void {
  try {
    const queued = sessionStorage.getItem(queuedToastKey);
    if (!queued) return;
    sessionStorage.removeItem(queuedToastKey);
    const { content, type } = JSON.parse(queued) as { content: string; type: ToastType };
    showToast(content, type);
  } catch {
    // A malformed entry is dropped.
  }
}
