import { useEffect, useId, useRef, useState } from "react";

/** Spec §9: hold-to-confirm fires after holding for 2 seconds; releasing earlier cancels. */
export const holdDurationMs = 2000;

type Props = {
  label: string;
  hint: string;
  onConfirm: () => void | Promise<void>;
  variant?: "danger" | "primary" | "ghost";
  disabled?: boolean;
};

/**
 * One hold-to-confirm button for every irreversible action (unlink, add device,
 * cancel). Pointer or keyboard (Space/Enter) hold; a progress bar fills over 2 s.
 */
export function HoldButton({ label, hint, onConfirm, variant = "primary", disabled = false }: Props) {
  const hintId = useId();
  const [isHolding, setIsHolding] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const release = () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    setIsHolding(false);
  };

  const press = () => {
    if (disabled || isBusy || timer.current) return;
    setIsHolding(true);
    timer.current = setTimeout(async () => {
      timer.current = undefined;
      setIsHolding(false);
      setIsBusy(true);
      try {
        await onConfirm();
      } finally {
        setIsBusy(false);
      }
    }, holdDurationMs);
  };

  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <div className="hold">
      <button
        type="button"
        className={`button button--${variant} hold__button${isHolding ? " hold__button--holding" : ""}`}
        aria-describedby={hintId}
        aria-busy={isBusy}
        disabled={disabled || isBusy}
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture?.(event.pointerId);
          press();
        }}
        onPointerUp={release}
        onPointerCancel={release}
        onLostPointerCapture={release}
        onKeyDown={(event) => {
          if ((event.key === " " || event.key === "Enter") && !event.repeat) {
            event.preventDefault();
            press();
          }
        }}
        onKeyUp={(event) => {
          if (event.key === " " || event.key === "Enter") release();
        }}
        onBlur={release}
        onContextMenu={(event) => event.preventDefault()}
      >
        <span
          className="hold__progress"
          aria-hidden="true"
          style={{ transitionDuration: isHolding ? `${holdDurationMs}ms` : "150ms" }}
          data-holding={isHolding}
        />
        <span className="hold__label">{label}</span>
      </button>
      <p id={hintId} className="hold__hint">
        {hint}
      </p>
    </div>
  );
}
