import { vi } from "vitest";
import { fakeApi } from "./store-api";

/**
 * `src/lib/api-client` as the store tests load it: the real helpers, the fake client of
 * ./store-api.ts in place of `api`. A test file says `vi.mock("../../../src/lib/api-client",
 * () => import("../../helpers/fake-api-client"))`.
 */
const actual = await vi.importActual<typeof import("../../src/lib/api-client")>("../../src/lib/api-client");
export const { errorMessage, errorCode, isNetworkFailure, failureCause } = actual;
export const api = fakeApi;

// Every value the real module exports stands here too: a new one is a type error until it is added.
({ api, errorMessage, errorCode, isNetworkFailure, failureCause }) satisfies Record<
  keyof typeof actual,
  unknown
>;
