import { Client, credentials, type ServiceError } from "@grpc/grpc-js";
import {
  type CoreKind,
  type CoreUser,
  coreNames,
  decodeQueryStats,
  decodeSysStats,
  encodeAddUser,
  encodeQueryStats,
  encodeRemoveUser,
  type Stat,
  type SysStats,
} from "./core-messages.ts";

/** The core's gRPC API as the agent uses it (a fake stands in for it in unit tests). */
export type CoreApi = {
  /** "exists" when the core already held that user: the wanted state either way. */
  addUser(inboundTag: string, user: CoreUser): Promise<"added" | "exists">;
  /** "absent" when the core held no such user: the wanted state either way. */
  removeUser(inboundTag: string, email: string): Promise<"removed" | "absent">;
  /** Per-user byte counters, read and zeroed in one call. */
  takeUserTraffic(): Promise<Stat[]>;
  sysStats(): Promise<SysStats>;
  close(): void;
};

/** A call that hangs (a core stopped mid-answer) must not hold the agent's loops. */
const callDeadlineMs = 5_000;

const identity = (value: Uint8Array) => Buffer.from(value);

export function connectCoreApi(core: CoreKind, address: string): CoreApi {
  const names = coreNames(core);
  const client = new Client(address, credentials.createInsecure());

  const call = <Result>(
    service: string,
    method: string,
    request: Uint8Array,
    decode: (answer: Uint8Array) => Result,
  ): Promise<Result> =>
    new Promise((resolve, reject) => {
      client.makeUnaryRequest<Uint8Array, Result>(
        `/${service}/${method}`,
        identity,
        (answer: Buffer) => decode(new Uint8Array(answer)),
        request,
        { deadline: Date.now() + callDeadlineMs },
        (error: ServiceError | null, answer?: Result) => {
          if (error) reject(error);
          else resolve(answer as Result);
        },
      );
    });

  const ignore = () => undefined;

  return {
    async addUser(inboundTag, user) {
      try {
        await call(names.handlerService, "AlterInbound", encodeAddUser(names, inboundTag, user), ignore);
        return "added";
      } catch (error) {
        if (errorText(error).includes("already exists")) return "exists";
        throw error;
      }
    },
    async removeUser(inboundTag, email) {
      try {
        await call(names.handlerService, "AlterInbound", encodeRemoveUser(names, inboundTag, email), ignore);
        return "removed";
      } catch (error) {
        if (errorText(error).includes("not found")) return "absent";
        throw error;
      }
    },
    takeUserTraffic: () =>
      call(names.statsService, "QueryStats", encodeQueryStats("user>>>", true), decodeQueryStats),
    sysStats: () => call(names.statsService, "GetSysStats", new Uint8Array(), decodeSysStats),
    close: () => client.close(),
  };
}

export function errorText(error: unknown): string {
  if (error && typeof error === "object" && "details" in error && typeof error.details === "string")
    return error.details;
  return error instanceof Error ? error.message : String(error);
}
