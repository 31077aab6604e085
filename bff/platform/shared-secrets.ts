import type { Database } from "../../db/database";
import type { Config } from "./config";
import { randomToken } from "./random";
import { sharedSetting } from "./shared-settings";

/**
 * With DATABASE_URL set, the secrets the server would generate into its data folder are
 * generated once into the database instead (DESIGN §15), so every instance verifies the
 * panel tokens another signed and signs sandbox calls with the same key. A configured
 * value always wins; config.ts leaves the unconfigured ones empty for this.
 */
export async function adoptSharedSecrets(config: Config, database: Database): Promise<void> {
  if (config.jwtSecret === "")
    config.jwtSecret = await sharedSetting(database, "jwt_secret", () => randomToken(48));
  if (config.cloudPaymentsApiSecret === "")
    config.cloudPaymentsApiSecret = await sharedSetting(database, "cloudpayments_api_secret", () =>
      randomToken(48),
    );
}
