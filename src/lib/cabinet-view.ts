export type SubscriptionStatus = "NOT_ACTIVE" | "ACTIVE" | "CANCELED" | "EXPIRED";
export type CabinetVariant = "purchase" | "cancelled" | "active";
export type StatusDot = "green" | "amber" | "red";

/**
 * Spec §2 "Cabinet": ACTIVE shows the active blocks; CANCELED while still running
 * shows the cancelled blocks with resume; everything else shows the purchase block.
 */
export function cabinetVariant(status: string, isActive: boolean): CabinetVariant {
  if (status === "ACTIVE") return "active";
  if (status === "CANCELED" && isActive) return "cancelled";
  return "purchase";
}

/** Green = active, amber = cancelled but still running, red = otherwise. */
export function statusDot(status: string, isActive: boolean): StatusDot {
  const variant = cabinetVariant(status, isActive);
  return variant === "active" ? "green" : variant === "cancelled" ? "amber" : "red";
}

/** Spec §9: device names over 23 characters are cut to 20 plus dots. */
export function shortDeviceName(name: string): string {
  return name.length > 23 ? `${name.slice(0, 20)}...` : name;
}

const platformNames: Record<string, string> = {
  android: "Android",
  ios: "iOS",
  windows: "Windows",
  macos: "macOS",
  linux: "Linux",
};

/** The app reports its platform as a lowercase code; people read the product's own name. */
export function platformName(code: string): string {
  return platformNames[code.toLowerCase()] ?? code;
}
