import { randomInteger } from "./random";

/**
 * A demo YooKassa shop id, made once like the demo's secrets: six digits, as the shop ids
 * YooKassa gives are, so a client library that checks the shape takes it.
 */
export const demoYooKassaShopId = () => String(randomInteger(100_000, 999_999));
