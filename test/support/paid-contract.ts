// Helpers of the shared paid-route contract (test/payments/paid-route-contract.test.ts): funded payers and nonces on
// the local chain, a facilitator's bazaar check, one route's requests on both rails, and the region-restricted-key
// clause.
import { expect } from "bun:test";
import Ajv2020 from "ajv/dist/2020";
import { decodeBase64Json, encodeMacaroonBase64, mintToken, parseIdentifier, type PaymentRequirements } from "payments";
import { importMacaroon } from "macaroon";
import { keccak256, toHex, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { PaidRouteInfo } from "../../src/http/route-registry";
import { NETWORK, type LocalChain } from "./chain";
import type { makePaymentsApp } from "./payments";
import { APERTURE_CHALLENGE, TEST_ROOT_SECRET } from "./payments";
import { officialFetch, signedPayment } from "./x402";
import { testKey } from "./keys";
import { usageMonth } from "../../src/domain/access";
import { keyUsage } from "../../src/services/keys";

export type PaymentsApp = Awaited<ReturnType<typeof makePaymentsApp>>;

export const keyOf = (label: string) => keccak256(toHex(label)) as Hex;
export const addr = (key: Hex) => privateKeyToAccount(key).address;
export const FUNDS = 1_000_000n;

/** A facilitator's check before cataloguing (@x402/extensions bazaar validateDiscoveryExtension): `info` against `schema`. */
export function bazaarErrors(ext: { info: unknown; schema: any }): string[] {
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(ext.schema);
  return validate(ext.info) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"}: ${e.message}`);
}

/**
 * The same PaymentRequired in a 402's body beside the error envelope, for clients that read bodies: the same
 * requirements (clients match them by deep equality), with the bazaar extension in full where the header has its
 * compact form. Both forms pass the facilitator's check of `info` against `schema`.
 */
export function expectBodyMirrorsHeader(body: any, header: any, example: string) {
  expect(body.error.code).toBe("PAYMENT_REQUIRED");
  expect(body.error.details.rails).toEqual(["x402", "l402"]);
  expect({ x402Version: body.x402Version, resource: body.resource, accepts: body.accepts }).toEqual({
    x402Version: 2,
    resource: header.resource,
    accepts: header.accepts,
  });
  expect(Object.keys(body.extensions)).toEqual(["bazaar"]);
  expect(Object.keys(header.extensions)).toEqual(["bazaar"]);
  expect(bazaarErrors(body.extensions.bazaar)).toEqual([]);
  expect(bazaarErrors(header.extensions.bazaar)).toEqual([]);
  expect(Object.keys(body.extensions.bazaar.info.input.queryParams)).toEqual(
    [...new URL(example, "http://x").searchParams.keys()].sort(),
  );
  expect(header.extensions.bazaar.schema.properties.input.properties.queryParams.required).toEqual(
    body.extensions.bazaar.schema.properties.input.properties.queryParams.required,
  );
}

let payerSeq = 0;
/** A fresh payer holding FUNDS atomic units of the local USDC. */
export async function payer(chain: LocalChain): Promise<Hex> {
  const key = keyOf(`contract-payer-${++payerSeq}`);
  await chain.mint(addr(key), FUNDS);
  return key;
}

/** Whether the token contract has seen this authorization's nonce (it has once a transfer used it). */
export async function nonceUsed(chain: LocalChain, header: string): Promise<boolean> {
  const a = (decodeBase64Json(header) as any).payload.authorization;
  return (await chain.client.readContract({
    address: chain.asset,
    abi: chain.tokenAbi,
    functionName: "authorizationState",
    args: [a.from, a.nonce],
  })) as boolean;
}

export const l402 = (macaroon: string, preimage: string) => `L402 ${macaroon}:${preimage}`;
export const caveatsOf = (macaroon: string) =>
  importMacaroon(macaroon).caveats.map((c) => Buffer.from(c.identifier).toString());
export const bindingOf = (macaroon: string) =>
  caveatsOf(macaroon).find((c) => c.startsWith("indicator=") || c.startsWith("resource="))!;
/** A token minted by this service for the same payment and price as `macaroon`, but bound to another resource of its kind. */
export function mintedElsewhere(macaroon: string): string {
  const [kind, value] = bindingOf(macaroon).split("=") as ["indicator" | "resource", string];
  const id = parseIdentifier(importMacaroon(macaroon).identifier)!;
  const cap = (name: string) =>
    Number(
      caveatsOf(macaroon)
        .find((c) => c.startsWith(`${name}=`))!
        .split("=")[1],
    );
  const token = mintToken({
    secret: TEST_ROOT_SECRET,
    paymentHash: id.paymentHash,
    tokenId: id.tokenId,
    binding: { kind, value: `${value}X` },
    maxMicroUsd: cap("max_usd_micros"),
    validUntil: cap("valid_until"),
  });
  return encodeMacaroonBase64(token);
}
export const reasonOf = async (res: Response) => ((await res.json()) as any).error?.details?.reason;

/** One paid route's requests on the test app: plain, the 402 a client reads, and proofs bought on either rail. */
export function routeCalls(t: PaymentsApp, chain: LocalChain, route: PaidRouteInfo) {
  const example = route.example ?? "";
  const nowSeconds = () => BigInt(Math.floor(t.clock.now().getTime() / 1000));
  const req = (path: string, headers: Record<string, string> = {}) =>
    t.request(path, { method: route.method, headers });

  /** A 402 for `path` and what a client reads from it. */
  async function challenge(path = example, headers: Record<string, string> = {}) {
    const res = await req(path, headers);
    if (res.status !== 402) throw new Error(`${path}: expected a 402, got ${res.status}: ${await res.text()}`);
    const m = APERTURE_CHALLENGE.exec(res.headers.get("www-authenticate") ?? "");
    if (!m) throw new Error(`no L402 challenge in the 402 of ${path}`);
    const paymentRequired = decodeBase64Json(res.headers.get("payment-required")!) as any;
    return {
      res,
      paymentRequired,
      requirement: paymentRequired.accepts[0] as PaymentRequirements,
      macaroon: m[2]!,
      invoice: m[3]!,
    };
  }

  /** Asks for a 402 and pays its invoice like an L402 client: the Authorization value that then buys the request. */
  async function buyL402(path = example) {
    const c = await challenge(path);
    const paid = t.dev.pay(c.invoice);
    if (!paid.ok) throw new Error(paid.message);
    return { authorization: l402(c.macaroon, paid.preimage), macaroon: c.macaroon, preimage: paid.preimage };
  }

  /** An EIP-3009 authorization for what `path` costs, signed by a fresh funded payer. */
  async function signedX402(path = example) {
    const key = await payer(chain);
    const { requirement } = await challenge(path);
    return {
      key,
      header: await signedPayment(key, requirement, { validBefore: nowSeconds() + 300n }),
      amount: BigInt(requirement.amount),
    };
  }

  /** The official x402 client paying through the app, and the PAYMENT-SIGNATURE headers it sent. */
  function officialPay(key: Hex) {
    const sent: string[] = [];
    const viaApp = (r: Request) => {
      const h = r.headers.get("payment-signature");
      if (h) sent.push(h);
      return t.app.fetch(r);
    };
    return { pay: officialFetch(viaApp, key, NETWORK), sent };
  }

  return { example, nowSeconds, req, challenge, buyL402, signedX402, officialPay };
}

/**
 * The region-restricted-key clause: a Professional key limited to Alaska (which no example reads: each names its
 * regions, or asks for every region as a list without a filter does) is refused the example with 403
 * REGION_NOT_ALLOWED, with or without an L402 token attached; nothing is metered and the token stays unspent.
 */
export async function expectRegionRefused(
  t: PaymentsApp,
  example: string,
  req: (path: string, headers?: Record<string, string>) => Response | Promise<Response>,
  buyL402: () => Promise<{ authorization: string }>,
) {
  const { key, row } = await testKey(t, { plan: "professional", allowedRegions: ["02"] });
  const token = await buyL402();
  for (const headers of [{ "x-api-key": key }, { "x-api-key": key, authorization: token.authorization }] as Record<
    string,
    string
  >[]) {
    const res = await req(example, headers);
    expect(res.status).toBe(403);
    const error = ((await res.json()) as any).error;
    expect(error.code).toBe("REGION_NOT_ALLOWED");
    expect(error.message).toContain("02");
  }
  expect(await keyUsage(t.deps, row.id, usageMonth(t.clock.now()))).toBe(0);
  expect((await req(example, { authorization: token.authorization })).status).toBe(200);
}
