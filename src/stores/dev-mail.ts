import { atom } from "nanostores";
import { type ApiData, api } from "../lib/api-client";

export type OutboxMessage = ApiData<typeof api.dev.mail.get>[number];

/**
 * The demo mailbox (/dev-mail): the messages to one address, newest first. "failed" is
 * its own state, so a call that did not work never reads as "no messages".
 */
export type DevMailState =
  | { status: "idle" }
  | { status: "loading"; address: string }
  | { status: "failed"; address: string }
  | { status: "ready"; address: string; messages: OutboxMessage[] };

export const $devMail = atom<DevMailState>({ status: "idle" });
export const $selectedMessageId = atom<string | undefined>(undefined);

let refreshTimer: ReturnType<typeof setTimeout> | undefined;
/** While a message waits for the worker, the list looks again this often. */
const refreshMs = 2000;

export async function showMessages(address: string): Promise<void> {
  clearTimeout(refreshTimer);
  const to = address.trim();
  const current = $devMail.get();
  const isRefresh = current.status === "ready" && current.address === to;
  if (!isRefresh) $devMail.set({ status: "loading", address: to });
  try {
    const { data, error } = await api.dev.mail.get({ query: { to } });
    if (error || !data) throw error ?? new Error("no messages");
    const latest = $devMail.get();
    if ("address" in latest && latest.address !== to) return;
    $devMail.set({ status: "ready", address: to, messages: data });
    const selected = $selectedMessageId.get();
    if (!data.some((message) => message.messageId === selected)) $selectedMessageId.set(data[0]?.messageId);
    if (data.some((message) => message.status === "pending"))
      refreshTimer = setTimeout(() => void showMessages(to), refreshMs);
  } catch (error) {
    console.error("demo mailbox failed", error);
    if (!isRefresh) $devMail.set({ status: "failed", address: to });
  }
}

export function selectMessage(messageId: string): void {
  $selectedMessageId.set(messageId);
}
