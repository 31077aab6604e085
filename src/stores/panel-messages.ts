import { atom } from "nanostores";
import { type ApiData, api } from "../lib/api-client";
import { panelCall } from "./panel-session";

export type MessagesPage = ApiData<typeof api.panel.users.messages.post>;

/** The messages sent to the opened customer: the page on screen, ten a page, newest first. */
export const $messagesQuery = atom({ userId: 0, page: 0 });
/** The last page that arrived: it stays on screen while another page loads or a call fails. */
export const $messages = atom<MessagesPage | undefined>();
export const $messagesFailed = atom(false);

let generation = 0;

export async function loadMessages(userId: number, page = 0): Promise<void> {
  const call = ++generation;
  $messagesQuery.set({ userId, page });
  let data: MessagesPage | null | undefined;
  try {
    ({ data } = await panelCall((headers) =>
      api.panel.users.messages.post({}, { headers, query: { userId, page, size: 10 } }),
    ));
  } catch {
    data = undefined;
  }
  if (call !== generation) return;
  $messagesFailed.set(!data);
  if (data) $messages.set(data);
}

export const showMessagesPage = (page: number) => loadMessages($messagesQuery.get().userId, page);

export const retryMessages = () => loadMessages($messagesQuery.get().userId, $messagesQuery.get().page);
