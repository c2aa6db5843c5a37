// API keys and recovery tokens as values.
// - A key is `svc_live_` or `svc_test_` followed by 32 URL-safe base64 characters (24 random bytes = 192 bits).
// - A recovery token is `svcr_` followed by 43 URL-safe base64 characters (32 random bytes = 256 bits).
// - Only SHA-256 (hex) of a key or token is ever stored; lookups go by hash.
// - A hint is the key's prefix plus its last four characters (`svc_live_…a1B2`): safe to show, mail and log.
// - A key id and other row ids are UUID v4 built from supplied random bytes.
// Pure: randomness arrives as bytes, time as Date arguments.

export type KeyMode = "live" | "test";

export const KEY_RANDOM_BYTES = 24;
export const TOKEN_RANDOM_BYTES = 32;
const KEY_PATTERN = /^svc_(live|test)_[A-Za-z0-9_-]{32}$/;
const TOKEN_PATTERN = /^svcr_[A-Za-z0-9_-]{43}$/;

export function base64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}

export function mintKey(mode: KeyMode, bytes: Uint8Array): string {
  if (bytes.length !== KEY_RANDOM_BYTES) throw new RangeError(`a key needs ${KEY_RANDOM_BYTES} random bytes`);
  return `svc_${mode}_${base64Url(bytes)}`;
}

export function mintRecoveryToken(bytes: Uint8Array): string {
  if (bytes.length !== TOKEN_RANDOM_BYTES)
    throw new RangeError(`a recovery token needs ${TOKEN_RANDOM_BYTES} random bytes`);
  return `svcr_${base64Url(bytes)}`;
}

/** The mode of a well-formed key, or null for anything that is not one. */
export function parseKey(raw: string): KeyMode | null {
  // test(), not exec(): no match array on every keyed request. Position 4 is the first letter of the mode.
  return KEY_PATTERN.test(raw) ? (raw.charCodeAt(4) === 108 /* l */ ? "live" : "test") : null;
}

export function isRecoveryToken(raw: string): boolean {
  return TOKEN_PATTERN.test(raw);
}

/** Hex SHA-256 (Bun's native hasher: this runs on every keyed request). */
export function sha256Hex(secret: string): string {
  return Bun.SHA256.hash(secret, "hex") as string;
}

/**
 * Constant-time equality of two hex digests (a stored hash against a computed one): every character is compared
 * whatever differs, so the time depends only on the (fixed, 64) length. No allocation: it runs on every request.
 */
export function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** sameDigest for raw digests (32 bytes of SHA-256): constant time for equal lengths, no allocation. */
export function sameDigestBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

export function keyHint(key: string): string {
  const mode = key.startsWith("svc_test_") ? "test" : "live";
  return `svc_${mode}_…${key.slice(-4)}`;
}

/** RFC 4122 version-4 UUID from 16 random bytes. */
export function uuidFromBytes(bytes: Uint8Array): string {
  if (bytes.length !== 16) throw new RangeError("a uuid needs 16 random bytes");
  const b = Uint8Array.from(bytes);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Buffer.from(b).toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** `jane.doe@example.com` -> `j***e@example.com`: enough to recognise, not enough to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const shown = local.length <= 2 ? `${local[0]}***` : `${local[0]}***${local[local.length - 1]}`;
  return `${shown}@${domain}`;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export type Credential =
  | { kind: "none" }
  | { kind: "key"; key: string; mode: KeyMode }
  | { kind: "malformed"; reason: string };

/**
 * What a request presents: `Authorization: Bearer <key>` or `X-API-Key: <key>`. Other Authorization schemes
 * (L402, payment rails) are not key credentials. Two different keys in one request are refused.
 */
export function readCredential(authorization: string | undefined, xApiKey: string | undefined): Credential {
  // The common case first (this runs on every request): a well-formed key in X-API-Key alone.
  if (authorization === undefined && xApiKey !== undefined) {
    const mode = parseKey(xApiKey);
    if (mode) return { kind: "key", key: xApiKey, mode };
  }
  let bearer: string | undefined;
  if (authorization !== undefined) {
    const m = /^Bearer(?:[ \t]+(.*))?$/i.exec(authorization.trim());
    if (m) bearer = (m[1] ?? "").trim();
    else {
      // A key under another scheme ("Token svc_live_…", as some APIs take it) was read as no key at all: a 402.
      const other = /^([A-Za-z][A-Za-z0-9_-]*)[ \t]+(\S.*)$/.exec(authorization.trim());
      if (other && (parseKey(other[2]!.trim()) || /^(token|key|api-?key)$/i.test(other[1]!))) {
        return { kind: "malformed", reason: `the Authorization scheme is '${other[1]!.slice(0, 20)}', not 'Bearer'` };
      }
    }
  }
  // "Authorization: Bearer" with nothing after it is a malformed key, as an empty X-API-Key is, not an anonymous call.
  if (bearer === "") return { kind: "malformed", reason: "Authorization: Bearer carries no key" };
  const header = xApiKey?.trim();
  if (bearer === undefined && (header === undefined || header === "")) {
    return header === "" ? { kind: "malformed", reason: "X-API-Key is empty" } : { kind: "none" };
  }
  if (bearer !== undefined && header !== undefined && header !== "" && bearer !== header) {
    return { kind: "malformed", reason: "Authorization and X-API-Key carry different keys" };
  }
  const key = (bearer ?? header)!;
  const mode = parseKey(key);
  return mode
    ? { kind: "key", key, mode }
    : { kind: "malformed", reason: "not a key of the form svc_live_… or svc_test_…" };
}
