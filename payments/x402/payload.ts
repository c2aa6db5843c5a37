// Decoding of the client's payment header (PAYMENT-SIGNATURE in v2, X-PAYMENT in v1 and in the spec).
// Anything that is not a well-formed EIP-3009 exact payload is "malformed" (a 400 with a clear message);
// well-formed payloads that fail verification are a different matter (a fresh 402).
import type { Hex } from "viem";
import { checksumAddress, isAddressText, isHexText } from "./address";
import { decodeBase64Json } from "../encoding";
import { toCaip2 } from "./networks";
import type { ParsedPayment } from "./types";

export type ParseResult = { ok: true; payment: ParsedPayment } | { ok: false; message: string };

const UINT = /^(0|[1-9][0-9]{0,77})$/;
const MAX_HEADER = 8192;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function parsePaymentHeader(text: string, headerName: string): ParseResult {
  const bad = (why: string): ParseResult => ({ ok: false, message: `Malformed ${headerName} header: ${why}.` });
  if (text.length > MAX_HEADER) return bad(`longer than ${MAX_HEADER} characters`);
  let raw: unknown;
  try {
    raw = decodeBase64Json(text);
  } catch (e) {
    return bad(`expected standard base64 of an x402 PaymentPayload JSON (${(e as Error).message})`);
  }
  if (!isObject(raw)) return bad("the decoded JSON is not an object");
  const version = raw.x402Version;
  if (version !== 1 && version !== 2) return bad("x402Version must be 1 or 2");

  let scheme: unknown;
  let network: unknown;
  let accepted: Record<string, unknown> | null = null;
  if (version === 2) {
    if (!isObject(raw.accepted)) return bad("a v2 payload needs `accepted` (a copy of the chosen requirement)");
    accepted = raw.accepted;
    scheme = accepted.scheme;
    network = accepted.network;
  } else {
    scheme = raw.scheme;
    network = raw.network;
  }
  if (typeof scheme !== "string" || !scheme) return bad("scheme is missing");
  if (typeof network !== "string" || !network) return bad("network is missing");

  const payload = raw.payload;
  if (!isObject(payload)) return bad("`payload` is missing");
  const auth = payload.authorization;
  if (!isObject(auth)) return bad("`payload.authorization` is missing (only EIP-3009 exact payments are accepted)");
  const sig = payload.signature;
  if (typeof sig !== "string" || !isHexText(sig) || sig.length < 4 || sig.length % 2 !== 0)
    return bad("`payload.signature` must be 0x-prefixed hex");

  for (const k of ["from", "to"] as const) {
    if (typeof auth[k] !== "string" || !isAddressText(auth[k] as string))
      return bad(`authorization.${k} must be an address`);
  }
  for (const k of ["value", "validAfter", "validBefore"] as const) {
    if (typeof auth[k] !== "string" || !UINT.test(auth[k] as string))
      return bad(`authorization.${k} must be a decimal string`);
  }
  if (typeof auth.nonce !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(auth.nonce))
    return bad("authorization.nonce must be 32 bytes of 0x-prefixed hex");

  return {
    ok: true,
    payment: {
      version,
      scheme,
      network: toCaip2(network) ?? network,
      accepted,
      authorization: {
        from: checksumAddress(auth.from as string),
        to: checksumAddress(auth.to as string),
        value: BigInt(auth.value as string),
        validAfter: BigInt(auth.validAfter as string),
        validBefore: BigInt(auth.validBefore as string),
        nonce: (auth.nonce as string).toLowerCase() as Hex,
      },
      signature: sig as Hex,
      raw,
    },
  };
}
