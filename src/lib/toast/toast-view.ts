import { $toasts, dismissToast, type Toast, toastDragDismissRatio } from "./toast-store";

type Mounted = { element: HTMLElement; timer: ReturnType<typeof setTimeout> | undefined };

function render(toast: Toast, closeLabel: string): HTMLElement {
  const element = document.createElement("div");
  element.className = `toast toast--${toast.type}`;
  element.setAttribute("role", toast.type === "error" ? "alert" : "status");
  element.dataset.toastId = String(toast.id);
  const text = document.createElement("p");
  text.className = "toast__text";
  text.textContent = toast.content;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "toast__close";
  close.setAttribute("aria-label", closeLabel);
  close.textContent = "×";
  close.addEventListener("click", () => dismissToast(toast.id));
  const progress = document.createElement("div");
  progress.className = "toast__progress";
  progress.style.animationDuration = `${toast.autoClose}ms`;
  element.append(text, close, progress);
  return element;
}

/** Drag sideways to dismiss: released past 80% of the toast's width it closes, else it snaps back. */
function makeDraggable(element: HTMLElement, id: number, pause: () => void, resume: () => void): void {
  let startX: number | undefined;
  element.addEventListener("pointerdown", (event) => {
    if ((event.target as HTMLElement).closest("button")) return;
    startX = event.clientX;
    element.setPointerCapture(event.pointerId);
    element.classList.add("toast--dragging");
    pause();
  });
  element.addEventListener("pointermove", (event) => {
    if (startX === undefined) return;
    const distance = event.clientX - startX;
    element.style.transform = `translateX(${distance}px)`;
    element.style.opacity = String(Math.max(0.2, 1 - Math.abs(distance) / element.offsetWidth));
  });
  const release = (event: PointerEvent) => {
    if (startX === undefined) return;
    const distance = Math.abs(event.clientX - startX);
    startX = undefined;
    element.classList.remove("toast--dragging");
    if (distance >= element.offsetWidth * toastDragDismissRatio) {
      dismissToast(id);
      return;
    }
    element.style.transform = "";
    element.style.opacity = "";
    resume();
  };
  element.addEventListener("pointerup", release);
  element.addEventListener("pointercancel", release);
}

/**
 * Renders the toast store into a live region at the top right. Landing scripts and
 * React islands both call `showToast`; this one renderer shows them all.
 */
export function mountToasts(container: HTMLElement): () => void {
  const closeLabel = container.dataset.closeLabel ?? "Close";
  const mounted = new Map<number, Mounted>();

  const unsubscribe = $toasts.subscribe((toasts) => {
    const current = new Set(toasts.map((toast) => toast.id));
    for (const [id, entry] of mounted) {
      if (current.has(id)) continue;
      clearTimeout(entry.timer);
      entry.element.remove();
      mounted.delete(id);
    }
    for (const toast of toasts) {
      if (mounted.has(toast.id)) continue;
      const element = render(toast, closeLabel);
      const entry: Mounted = { element, timer: undefined };
      let remaining = toast.autoClose;
      let startedAt = Date.now();
      const resume = () => {
        startedAt = Date.now();
        element.classList.remove("toast--paused");
        entry.timer = setTimeout(() => dismissToast(toast.id), remaining);
      };
      const pause = () => {
        clearTimeout(entry.timer);
        remaining = Math.max(0, remaining - (Date.now() - startedAt));
        element.classList.add("toast--paused");
      };
      makeDraggable(element, toast.id, pause, resume);
      mounted.set(toast.id, entry);
      container.append(element);
      resume();
    }
  });
  return unsubscribe;
}
