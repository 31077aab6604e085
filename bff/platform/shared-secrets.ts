import type { Database } from "../../db/database";
import { type Config, configWith } from "./config";
import { randomToken } from "./random";
import { sharedSetting } from "./shared-settings";
import { demoYooKassaShopId } from "./yookassa-demo-shop";

/**
 * With DATABASE_URL set, the secrets the server would generate into its data folder are
 * generated once into the database instead (DESIGN §15), so every instance verifies the
 * panel tokens another signed and signs sandbox calls with the same key. A configured
 * value always wins; config.ts leaves the unconfigured ones empty for this. The answer is
 * the configuration with them in place (it never changes in place).
 */
export async function adoptSharedSecrets(config: Config, database: Database): Promise<Config> {
  const shared = async (value: string, key: string) =>
    value === "" ? await sharedSetting(database, key, () => randomToken(48)) : value;
  const isYooKassaGenerated = config.mode === "demo";
  return configWith(config, {
    jwtSecret: await shared(config.jwtSecret, "jwt_secret"),
    cloudPaymentsApiSecret: await shared(config.cloudPaymentsApiSecret, "cloudpayments_api_secret"),
    // Production without YooKassa's pair has no YooKassa shop: nothing is made up for it.
    ...(isYooKassaGenerated && {
      yooKassaShopId:
        config.yooKassaShopId || (await sharedSetting(database, "yookassa_shop_id", demoYooKassaShopId)),
      yooKassaSecretKey: await shared(config.yooKassaSecretKey, "yookassa_secret_key"),
    }),
  });
}
