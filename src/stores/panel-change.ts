import { errorMessage } from "../lib/api-client";
import { type Failure, failureOf } from "./panel-query";
import { panelCall } from "./panel-session";

/** Why a change did not happen: the refusal's code and status (panel-query.ts) and the server's words. */
export type Refusal = Failure & { detail?: string };

/** A change on screen: under way, and why the last one was refused. */
export type ChangeState = { isBusy: boolean; refusal?: Refusal };
export const idle: ChangeState = { isBusy: false };

export type ChangeCall<D> = (headers: {
  authorization: string;
}) => Promise<{ data: D | null; error: { status: unknown; value: unknown } | null }>;

async function attempt<D>(call: ChangeCall<D>): Promise<{ data: D } | { refusal: Refusal }> {
  try {
    const { data, error } = await panelCall(call);
    if (data !== null && data !== undefined) return { data };
    return { refusal: { ...failureOf(error), detail: errorMessage(error) } };
  } catch {
    return { refusal: { status: undefined } };
  }
}

/**
 * One panel change (Staff, Nodes), shown through `show`: busy while it runs, then done or
 * refused with the server's code and words. The answer's data, when it was done.
 */
export async function tracked<D>(
  show: (state: ChangeState) => void,
  call: ChangeCall<D>,
): Promise<D | undefined> {
  show({ isBusy: true });
  const outcome = await attempt(call);
  if ("refusal" in outcome) {
    show({ isBusy: false, refusal: outcome.refusal });
    return undefined;
  }
  show(idle);
  return outcome.data;
}
