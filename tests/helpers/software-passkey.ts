import {
  createHash,
  createPrivateKey,
  createPublicKey,
  createSign,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { isoCBOR } from "@simplewebauthn/server/helpers";

const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash("sha256").update(data).digest());
const base64url = (data: Uint8Array | string) => Buffer.from(data).toString("base64url");
const fromBase64url = (text: string) => new Uint8Array(Buffer.from(text, "base64url"));
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const uint32 = (value: number) => {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value);
  return bytes;
};

/** Authenticator data flags (WebAuthn §6.1): user present, user verified, attested data. */
const flagUp = 0x01;
const flagUv = 0x04;
const flagAt = 0x40;

/** A passkey's credential id (base64url) and PKCS#8 private key (base64), as saved to a file. */
export type SavedPasskey = { credentialId: string; privateKey: string };

export type SoftwarePasskeyOptions = {
  /** Whether the "user" is verified (PIN, biometrics): a passkey without it must be refused. */
  isUserVerified?: boolean;
  /** The signature counter's start; 0 with `keepsCounter: false` is a synced passkey's. */
  counter?: number;
  keepsCounter?: boolean;
  /** The origin the "browser" reports (a phishing page's differs). */
  origin: string;
};

/**
 * A passkey in software, for tests: an ES256 key pair that answers registration and
 * sign-in challenges as an authenticator behind a browser would (attestation "none",
 * clientDataJSON, authenticator data, a DER signature), so the server's real WebAuthn
 * checks run on them. Its knobs make the answers a real device must not give.
 */
export class SoftwarePasskey {
  readonly credentialId: Uint8Array;
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x?: string; y?: string };
  counter: number;
  isUserVerified: boolean;
  keepsCounter: boolean;
  origin: string;

  constructor(options: SoftwarePasskeyOptions, saved?: SavedPasskey) {
    if (saved) {
      this.credentialId = fromBase64url(saved.credentialId);
      this.privateKey = createPrivateKey({
        key: Buffer.from(saved.privateKey, "base64"),
        format: "der",
        type: "pkcs8",
      });
    } else {
      this.credentialId = new Uint8Array(randomBytes(16));
      this.privateKey = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    }
    this.publicJwk = createPublicKey(this.privateKey).export({ format: "jwk" });
    this.counter = options.counter ?? 0;
    this.keepsCounter = options.keepsCounter ?? false;
    this.isUserVerified = options.isUserVerified ?? true;
    this.origin = options.origin;
  }

  get id() {
    return base64url(this.credentialId);
  }

  /** What another process needs to use this passkey (a browser test's worker): its key and id. */
  save(): SavedPasskey {
    return {
      credentialId: this.id,
      privateKey: this.privateKey.export({ format: "der", type: "pkcs8" }).toString("base64"),
    };
  }

  private coseKey() {
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, fromBase64url(this.publicJwk.x ?? "")],
        [-3, fromBase64url(this.publicJwk.y ?? "")],
      ]),
    );
  }

  private flags(extra = 0) {
    return new Uint8Array([flagUp | (this.isUserVerified ? flagUv : 0) | extra]);
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string) {
    return JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false });
  }

  /** The answer `startRegistration` would send for these options. */
  register(
    options: PublicKeyCredentialCreationOptionsJSON,
    rpId = options.rp.id ?? "",
  ): RegistrationResponseJSON {
    const idLength = new Uint8Array([0, this.credentialId.length]);
    const authData = concat(
      sha256(rpId),
      this.flags(flagAt),
      uint32(this.counter),
      new Uint8Array(16),
      idLength,
      this.credentialId,
      this.coseKey(),
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      clientExtensionResults: {},
      response: {
        clientDataJSON: base64url(this.clientData("webauthn.create", options.challenge)),
        attestationObject: base64url(attestationObject),
        transports: ["internal"],
      },
    };
  }

  /**
   * The answer `startAuthentication` would send. Each use moves the counter on when it
   * keeps one; `counter` may be set back by a test to play a cloned authenticator.
   */
  assert(
    options: PublicKeyCredentialRequestOptionsJSON,
    rpId = options.rpId ?? "",
  ): AuthenticationResponseJSON {
    if (this.keepsCounter) this.counter++;
    const authData = concat(sha256(rpId), this.flags(), uint32(this.counter));
    const clientDataJSON = this.clientData("webauthn.get", options.challenge);
    const signer = createSign("SHA256");
    signer.update(concat(authData, sha256(clientDataJSON)));
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      clientExtensionResults: {},
      response: {
        clientDataJSON: base64url(clientDataJSON),
        authenticatorData: base64url(authData),
        signature: base64url(signer.sign(this.privateKey)),
        userHandle: base64url("operator"),
      },
    };
  }
}
