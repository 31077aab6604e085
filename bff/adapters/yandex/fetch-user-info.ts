import { AppError } from "../../platform/errors";
import type { HttpClient } from "../../platform/http-client";
import type { VerifiedIdentity } from "../google/verify-id-token";

export type YandexVerifier = { infoUrl: string; clientId: string };

type YandexInfo = {
  id?: unknown;
  client_id?: unknown;
  default_email?: unknown;
  default_avatar_id?: unknown;
  is_avatar_empty?: unknown;
  real_name?: unknown;
};

/**
 * Yandex tokens are opaque: the server asks Yandex's info endpoint who the token
 * belongs to, and refuses a token that was issued to another application.
 */
export async function verifyYandexToken(
  token: string,
  verifier: YandexVerifier,
  http: HttpClient,
): Promise<VerifiedIdentity> {
  let response: Response;
  try {
    response = await http.fetch(
      new Request(`${verifier.infoUrl}?format=json`, { headers: { authorization: `OAuth ${token}` } }),
    );
  } catch {
    throw new AppError("yandex_unreachable");
  }
  if (response.status === 401 || response.status === 403) {
    throw new AppError("yandex_sign_in_invalid");
  }
  if (!response.ok) throw new AppError("yandex_unconfirmed");
  const info = (await response.json()) as YandexInfo;
  if (info.client_id !== verifier.clientId) {
    throw new AppError("yandex_other_application");
  }
  if (typeof info.id !== "string" || typeof info.default_email !== "string" || !info.default_email) {
    throw new AppError("yandex_no_email");
  }
  const hasAvatar = typeof info.default_avatar_id === "string" && info.is_avatar_empty !== true;
  return {
    uid: info.id,
    email: info.default_email,
    photoURL: hasAvatar ? `https://avatars.yandex.net/get-yapic/${info.default_avatar_id}/islands-200` : null,
    name: typeof info.real_name === "string" ? info.real_name : null,
  };
}
