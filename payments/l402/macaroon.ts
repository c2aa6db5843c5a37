// L402 tokens: go-macaroon V2 binary macaroons with Aperture's identifier
//   id = uint16 BE version (0) || payment_hash[32] || token_id[32]   (66 bytes)
// and first-party caveats `key=value`:
//   indicator=<code> | resource=<path>   what the token pays for (every occurrence must match the request)
//   max_usd_micros=<n>                  the price paid; a request costing more is refused
//   valid_until=<unix seconds>          expiry; every occurrence must lie in the future (later ones only narrow)
// Unknown caveats (e.g. Aperture clients' `preimage=`) are tolerated. The per-token root key is
// HMAC-SHA256(secret, id), so nothing is stored per token and old secrets can still verify during a rotation.
// The signature chain is go-macaroon's (HMAC with the "macaroons-key-generator" derived key), via the `macaroon`
// package; serialisation is our own because its exportBinary() grows its buffer exponentially (research l402.md §3).
import { createHmac } from "node:crypto";
import type * as MacaroonLib from "macaroon";
import type { Macaroon } from "macaroon";
import { constantTimeEqual, decodeBase64Loose, fromHex, sha256, toHex } from "../encoding";

export const TOKEN_LOCATION = "svc";
// The macaroon library (with sjcl and tweetnacl, about 20 MB of a process's memory) is loaded by the first token made
// or read rather than at start; the runtime's module registry keeps it once loaded (a later require() is a lookup).
const macaroonLib = () => require("macaroon") as typeof MacaroonLib;

const ID_LENGTH = 66;

export type Binding = { kind: "indicator" | "resource"; value: string };

export function tokenIdentifier(paymentHash: Uint8Array, tokenId: Uint8Array): Uint8Array {
  if (paymentHash.length !== 32 || tokenId.length !== 32) throw new Error("payment hash and token id must be 32 bytes");
  const id = new Uint8Array(ID_LENGTH);
  id.set(paymentHash, 2);
  id.set(tokenId, 34);
  return id;
}

export function parseIdentifier(id: Uint8Array): { paymentHash: Uint8Array; tokenId: Uint8Array } | null {
  if (id.length !== ID_LENGTH || id[0] !== 0 || id[1] !== 0) return null;
  return { paymentHash: id.slice(2, 34), tokenId: id.slice(34, 66) };
}

export function rootKeyFor(secret: Uint8Array, identifier: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac("sha256", secret).update(identifier).digest());
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

function field(out: number[], tag: number, data: Uint8Array) {
  out.push(tag, ...varint(data.length));
  for (const b of data) out.push(b);
}

/** go-macaroon V2 binary (packet-v2.go): version 2, [location], id, EOS, caveats, EOS, signature. */
export function encodeMacaroonV2(m: Macaroon): Uint8Array {
  const out: number[] = [2];
  const enc = new TextEncoder();
  if (m.location) field(out, 1, enc.encode(m.location));
  field(out, 2, m.identifier);
  out.push(0);
  for (const c of m.caveats) {
    if (c.location) field(out, 1, enc.encode(c.location));
    field(out, 2, c.identifier);
    if (c.vid) field(out, 4, c.vid);
    out.push(0);
  }
  out.push(0);
  field(out, 6, m.signature);
  return new Uint8Array(out);
}

export function encodeMacaroonBase64(m: Macaroon): string {
  return Buffer.from(encodeMacaroonV2(m)).toString("base64");
}

export function mintToken(opts: {
  secret: Uint8Array;
  paymentHash: Uint8Array;
  tokenId: Uint8Array;
  binding: Binding;
  maxMicroUsd: number;
  validUntil: number;
}): Macaroon {
  const identifier = tokenIdentifier(opts.paymentHash, opts.tokenId);
  const m = macaroonLib().newMacaroon({
    identifier,
    location: TOKEN_LOCATION,
    rootKey: rootKeyFor(opts.secret, identifier),
    version: 2,
  });
  m.addFirstPartyCaveat(`${opts.binding.kind}=${opts.binding.value}`);
  m.addFirstPartyCaveat(`max_usd_micros=${opts.maxMicroUsd}`);
  m.addFirstPartyCaveat(`valid_until=${opts.validUntil}`);
  return m;
}

export type TokenCheck = { binding: Binding; microUsd: number; nowSeconds: number };

export type TokenVerdict =
  | { ok: true; paymentHash: string; tokenId: string; caveats: string[] }
  | {
      ok: false;
      reason:
        | "malformed"
        | "wrong_preimage"
        | "invalid_signature"
        | "expired"
        | "wrong_binding"
        | "price_exceeded"
        | "missing_caveat";
      message: string;
    };

const KNOWN = new Set(["indicator", "resource", "max_usd_micros", "valid_until"]);

/** Pure caveat check, run by the macaroon library on every caveat before the signature is compared. */
function checkCaveat(cond: string, want: TokenCheck): string | null {
  const eq = cond.indexOf("=");
  if (eq <= 0) return null; // not key=value: unknown, tolerated
  const key = cond.slice(0, eq);
  const value = cond.slice(eq + 1);
  switch (key) {
    case "indicator":
    case "resource":
      return key === want.binding.kind && value === want.binding.value ? null : "wrong_binding";
    case "max_usd_micros":
      return /^[0-9]{1,15}$/.test(value) && want.microUsd <= Number(value) ? null : "price_exceeded";
    case "valid_until":
      return /^[0-9]{1,15}$/.test(value) && want.nowSeconds < Number(value) ? null : "expired";
    default:
      return null;
  }
}

/** Verifies a token and its preimage, cheapest first: decoding, preimage hash (constant time), caveats and signature. */
export function verifyToken(
  macaroonB64: string,
  preimageHex: string,
  secrets: Uint8Array[],
  want: TokenCheck,
): TokenVerdict {
  const bytes = decodeBase64Loose(macaroonB64);
  if (!bytes) return { ok: false, reason: "malformed", message: "The macaroon is not base64." };
  let m: Macaroon;
  try {
    m = macaroonLib().importMacaroon(bytes);
  } catch {
    return { ok: false, reason: "malformed", message: "The macaroon cannot be decoded (V2 binary expected)." };
  }
  const id = parseIdentifier(m.identifier);
  if (!id) return { ok: false, reason: "malformed", message: "The macaroon identifier is not an L402 v0 identifier." };
  if (!/^[0-9a-f]{64}$/i.test(preimageHex))
    return { ok: false, reason: "malformed", message: "The preimage must be 64 hex characters." };
  if (!constantTimeEqual(sha256(fromHex(preimageHex)), id.paymentHash)) {
    return { ok: false, reason: "wrong_preimage", message: "The preimage does not match the token's payment hash." };
  }
  let caveats: string[];
  try {
    caveats = m.caveats.map((c) => {
      if (c.vid) throw new Error("third-party caveat");
      return new TextDecoder("utf-8", { fatal: true }).decode(c.identifier);
    });
  } catch {
    return { ok: false, reason: "malformed", message: "The macaroon carries caveats this service cannot read." };
  }
  const keys = new Set(caveats.map((c) => c.slice(0, Math.max(0, c.indexOf("=")))).filter((k) => KNOWN.has(k)));
  if (!keys.has(want.binding.kind) || !keys.has("max_usd_micros") || !keys.has("valid_until")) {
    // A token without the binding this route needs was minted for something else.
    return {
      ok: false,
      reason: keys.has("valid_until") ? "wrong_binding" : "missing_caveat",
      message: "The token is not bound to this request.",
    };
  }
  let signatureOk = false;
  let failed: string | null = null;
  for (const secret of secrets) {
    try {
      m.verify(rootKeyFor(secret, m.identifier), (cond) => {
        const err = checkCaveat(cond, want);
        if (err) failed ??= err;
        return err;
      });
      signatureOk = true;
      break;
    } catch {
      if (failed) break; // a caveat failed: no other secret can change that
    }
  }
  if (failed) {
    // Caveats are judged before the signature; a forged caveat still has to pass the signature to matter.
    const sigValid = secrets.some((secret) => {
      try {
        m.verify(rootKeyFor(secret, m.identifier), () => null);
        return true;
      } catch {
        return false;
      }
    });
    if (!sigValid) return { ok: false, reason: "invalid_signature", message: "The macaroon's signature is invalid." };
    const messages: Record<string, string> = {
      wrong_binding: `The token is bound to something other than ${want.binding.kind} ${want.binding.value}.`,
      price_exceeded: "The token was bought for a cheaper request.",
      expired: "The token has expired.",
    };
    return { ok: false, reason: failed as "expired", message: messages[failed] ?? "A caveat is not satisfied." };
  }
  if (!signatureOk) return { ok: false, reason: "invalid_signature", message: "The macaroon's signature is invalid." };
  return { ok: true, paymentHash: toHex(id.paymentHash), tokenId: toHex(id.tokenId), caveats };
}
