// Encodings shared by both rails. x402 headers are standard base64 (with padding) over UTF-8 JSON;
// L402 macaroons travel as standard base64 and are accepted in the URL-safe form too.
import { createHash, timingSafeEqual } from "node:crypto";

const STD_B64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64");
}

/** Decodes standard base64 JSON; throws an Error with a short reason otherwise. */
export function decodeBase64Json(text: string): unknown {
  const s = text.trim();
  if (!s || s.length % 4 !== 0 || !STD_B64.test(s)) throw new Error("not standard base64");
  const json = Buffer.from(s, "base64").toString("utf8");
  try {
    return JSON.parse(json);
  } catch {
    throw new Error("base64 content is not JSON");
  }
}

/** Standard or URL-safe base64, padded or not. Returns null when the text is not base64. */
export function decodeBase64Loose(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  const std = text.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  if (std.length % 4 === 1) return null;
  return new Uint8Array(Buffer.from(std, "base64"));
}

export function sha256(data: Uint8Array | string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(data).digest());
}

export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, "hex"));
}

/** Constant-time equality; unequal lengths are simply unequal (timingSafeEqual throws on them). */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
