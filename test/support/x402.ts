// x402 test helpers: the official client (@x402/core + @x402/evm + @x402/fetch) pointed at a test app, the official
// facilitator (@x402/core x402Facilitator + @x402/evm ExactEvmScheme) served on loopback, and a signer that builds
// payloads by hand for the negative cases the official client would never produce.
import { x402Client } from "@x402/core/client";
import { x402Facilitator } from "@x402/core/facilitator";
import { ExactEvmScheme as ExactEvmClient } from "@x402/evm/exact/client";
import { ExactEvmScheme as ExactEvmFacilitator } from "@x402/evm/exact/facilitator";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { wrapFetchWithPayment } from "@x402/fetch";
import { EIP3009_TYPES, encodeBase64Json, type PaymentRequirements } from "payments";
import { createPublicClient, createWalletClient, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { registerCleanup } from "./cleanup";
import type { LocalChain } from "./chain";

/** The official client paying through `app.fetch` (no sockets). Local tokens are not on its default allow-list. */
export function officialFetch(
  appFetch: (req: Request) => Response | Promise<Response>,
  payerKey: Hex,
  network: string,
) {
  const client = new x402Client().register(
    network as `${string}:${string}`,
    new ExactEvmClient(privateKeyToAccount(payerKey)),
  );
  client.setSpendControls({ allowedAssets: true });
  const viaApp = async (input: string | URL | Request, init?: RequestInit) => appFetch(new Request(input as any, init));
  return wrapFetchWithPayment(viaApp as typeof fetch, client);
}

/** The reference facilitator's HTTP API (/verify, /settle, /supported) on 127.0.0.1, settling with `key`. */
export function serveFacilitator(chain: LocalChain, key: Hex, network: string) {
  const account = privateKeyToAccount(key);
  const publicClient = createPublicClient({ chain: chain.chain, transport: http(chain.rpcUrl), pollingInterval: 50 });
  const walletClient = createWalletClient({ account, chain: chain.chain, transport: http(chain.rpcUrl) });
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args: any) => publicClient.readContract({ ...args, args: args.args || [] } as never),
    verifyTypedData: (args: any) => publicClient.verifyTypedData(args as never),
    writeContract: (args: any) => walletClient.writeContract({ ...args, args: args.args || [] } as never),
    sendTransaction: (args: any) => walletClient.sendTransaction(args as never),
    waitForTransactionReceipt: (args: any) => publicClient.waitForTransactionReceipt(args as never),
    getCode: (args: any) => publicClient.getCode(args),
  } as never);
  const facilitator = new x402Facilitator().register(network as `${string}:${string}`, new ExactEvmFacilitator(signer));
  const calls: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      calls.push(`${req.method} ${path}`);
      if (req.method === "GET" && path === "/supported") return Response.json(facilitator.getSupported());
      if (req.method !== "POST" || (path !== "/verify" && path !== "/settle"))
        return new Response("not found", { status: 404 });
      const body = (await req.json()) as any;
      const out =
        path === "/verify"
          ? await facilitator.verify(body.paymentPayload, body.paymentRequirements)
          : await facilitator.settle(body.paymentPayload, body.paymentRequirements);
      return Response.json(out);
    },
  });
  registerCleanup(async () => void server.stop(true));
  return { url: `http://127.0.0.1:${server.port}`, address: account.address, calls };
}

/** A v2 (or v1) payment header signed by hand over the given authorization values. */
export async function signedPayment(
  key: Hex,
  req: PaymentRequirements,
  auth: Partial<{ to: `0x${string}`; value: bigint; validAfter: bigint; validBefore: bigint; nonce: Hex }> & {
    validBefore: bigint;
  },
  opts: { version?: 1 | 2; v1Network?: string; mutate?: (payload: any) => void; rawV?: boolean } = {},
): Promise<string> {
  const account = privateKeyToAccount(key);
  const message = {
    from: account.address,
    to: auth.to ?? req.payTo,
    value: auth.value ?? BigInt(req.amount),
    validAfter: auth.validAfter ?? 0n,
    validBefore: auth.validBefore,
    nonce: auth.nonce ?? (`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}` as Hex),
  };
  let signature = await account.signTypedData({
    domain: {
      name: req.extra.name,
      version: req.extra.version,
      chainId: Number(req.network.split(":")[1]),
      verifyingContract: req.asset,
    },
    types: EIP3009_TYPES,
    primaryType: "TransferWithAuthorization",
    message,
  });
  if (opts.rawV)
    signature =
      `${signature.slice(0, 130)}${(parseInt(signature.slice(130), 16) - 27).toString(16).padStart(2, "0")}` as Hex;
  const payload = {
    signature,
    authorization: {
      ...message,
      value: message.value.toString(),
      validAfter: message.validAfter.toString(),
      validBefore: message.validBefore.toString(),
    },
  };
  const body: any =
    opts.version === 1
      ? { x402Version: 1, scheme: "exact", network: opts.v1Network ?? req.network, payload }
      : { x402Version: 2, accepted: req, payload, resource: { url: "x" } };
  opts.mutate?.(body);
  return encodeBase64Json(body);
}
