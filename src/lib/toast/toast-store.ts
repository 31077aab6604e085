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
