import { AppError } from "../../../platform/errors";
import { findForbiddenText } from "../../../platform/input-guard";

/**
 * A provider's notification fit to act on: read, and free of the characters no input may
 * hold (parsed by the intake, not the framework, so the global input rule is applied here;
 * a NUL cannot even be stored on PostgreSQL). Each refusal is counted before it is thrown.
 */
export function fitNotification<Notification extends object>(
  notification: Notification | undefined | null,
  counted: (result: "refused") => void,
): Notification {
  if (!notification) {
    counted("refused");
    throw new AppError("notification_unreadable");
  }
  const field = findForbiddenText(notification);
  if (field) {
    counted("refused");
    throw new AppError("notification_invisible_character", { field });
  }
  return notification;
}
