import { expect } from "vitest";
import { SettingsError } from "../../agent/settings";

/** The message of the SettingsError that `read` throws; empty when it throws nothing. */
export function settingsErrorMessage(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return (error as Error).message;
  }
  return "";
}
