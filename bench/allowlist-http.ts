/** The few product calls the allow-list bench makes as a customer and as an administrator. */
import { SoftwarePasskey } from "../tests/helpers/software-passkey";

const postJson = async (
  origin: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  const response = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response;
};

export type Customer = { uid: string; email: string; cookie: string };

/**
 * A customer as tests/helpers/seed-paying-customers.ts makes one (demo sign-in, order,
 * first payment through the sandbox), keeping the session cookie for the cabinet's calls.
 */
export async function payingCustomer(origin: string, email: string): Promise<Customer> {
  const token = (await (await postJson(origin, "/api/dev/idp/token", { email })).json()) as {
    credential: string;
    uid: string;
  };
  const register = await postJson(origin, "/api/register", {
    ...token,
    email,
    providerId: "google.com",
    period: 1,
    tariff: 1,
  });
  const cookie = register.headers.getSetCookie()[0]?.split(";")[0] ?? "";
  const order = (await (
    await postJson(origin, "/api/shop/order", { email, uid: token.uid, tariff: 1, period: 1 }, { cookie })
  ).json()) as { invoiceId: string };
  const paid = (await (
    await postJson(origin, "/api/dev/sandbox/pay", {
      invoiceId: order.invoiceId,
      cardNumber: "4242 4242 4242 4242",
    })
  ).json()) as { success: boolean };
  if (!paid.success) throw new Error(`the first payment of ${email} failed`);
  return { uid: token.uid, email, cookie };
}

export type DeviceLink = { deviceId: string; subscriptionUrl: string };

/** `POST /api/profile/devices/connect` (no deviceId: a new device) or `resetLink` (rotate it). */
export async function deviceCall(
  origin: string,
  customer: Customer,
  call: "connect" | "resetLink",
  deviceId?: string,
): Promise<DeviceLink> {
  const response = await postJson(
    origin,
    `/api/profile/devices/${call}`,
    { uid: customer.uid, email: customer.email, ...(deviceId ? { deviceId } : {}) },
    { cookie: customer.cookie },
  );
  return (await response.json()) as DeviceLink;
}

/** The credential a subscription link now carries: the UUID of its first share link. */
export async function credentialOfLink(subscriptionUrl: string, origin: string): Promise<string> {
  const path = new URL(subscriptionUrl).pathname;
  const response = await fetch(`${origin}${path}`);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  const links = Buffer.from(await response.text(), "base64").toString("utf8");
  const id = /vless:\/\/([0-9a-f-]{36})@/i.exec(links)?.[1];
  if (!id) throw new Error(`no share link in the subscription: ${links.slice(0, 200)}`);
  return id;
}

/** The ALTCHA proof of work the login page does, with Bun's SHA-256. */
async function solvedCaptcha(origin: string): Promise<string> {
  const challenge = (await (await fetch(`${origin}/api/auth/captcha`)).json()) as {
    algorithm: string;
    challenge: string;
    maxnumber?: number;
    salt: string;
    signature: string;
  };
  for (let number = 0; number <= (challenge.maxnumber ?? 1_000_000); number++) {
    if (new Bun.CryptoHasher("sha256").update(challenge.salt + number).digest("hex") === challenge.challenge)
      return btoa(
        JSON.stringify({
          algorithm: challenge.algorithm,
          challenge: challenge.challenge,
          number,
          salt: challenge.salt,
          signature: challenge.signature,
        }),
      );
  }
  throw new Error("the captcha could not be solved");
}

/**
 * An administrator's access token through the staff login (captcha included). An
 * administrator must have a second factor (DESIGN §12): this first sign-in enrols a
 * software passkey, after which the same sign-in reaches the whole panel.
 */
export async function adminToken(origin: string, username: string, password: string): Promise<string> {
  const captcha = await solvedCaptcha(origin);
  const response = await postJson(origin, "/api/auth/login", { username, password, captcha });
  const { accessToken, enrolmentRequired } = (await response.json()) as {
    accessToken: string;
    enrolmentRequired?: true;
  };
  if (enrolmentRequired) {
    const bearer = { authorization: `Bearer ${accessToken}` };
    // The server's PUBLIC_URL is the demo default for its port: the passkey's origin.
    const passkey = new SoftwarePasskey({ origin: `http://localhost:${new URL(origin).port}` });
    const { challengeId, options } = (await (
      await postJson(origin, "/api/panel/security/passkeys/options", {}, bearer)
    ).json()) as { challengeId: string; options: never };
    await postJson(
      origin,
      "/api/panel/security/passkeys",
      { challengeId, name: "Bench", credential: passkey.register(options) },
      bearer,
    );
  }
  return accessToken;
}

export type PanelNode = {
  name: string;
  appliedVersion: number;
  credentials: { held: number; expected: number };
};

/** The panel's Nodes screen data (GET /api/panel/nodes), as an administrator reads it. */
export async function panelNodes(origin: string, accessToken: string): Promise<PanelNode[]> {
  const response = await fetch(`${origin}/api/panel/nodes`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  if (!response.ok) throw new Error(`/api/panel/nodes: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { nodes: PanelNode[] }).nodes;
}
