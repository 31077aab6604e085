import type { Credential } from "../../../../db/queries/devices";
import { randomBytes, randomToken, randomUuid } from "../../../platform/random";

/**
 * A fresh credential (DESIGN §8): the UUID the core knows the device by, an opaque node
 * tag (the core user's `email`: random, so nothing on a node names the customer) and the
 * token of the device's subscription URL. All random, none derived from the customer.
 */
export function newCredential(): Credential {
  return {
    credential: randomUuid(),
    nodeTag: `k${Buffer.from(randomBytes(10)).toString("hex")}`,
    subToken: randomToken(24),
  };
}
