// The chain and apps test/payments/paid-route-*.test.ts run the shared paid-route contract on (DESIGN.md "Tests"):
// a real local chain (anvil with Circle's FiatToken) and the real app on it twice, with the page memo of the paid
// routes and without it, each with its own clock following the chain's.
import { seedFlows } from "../../db/seed/flows";
import { ANVIL_KEYS, NETWORK, startChain } from "../support/chain";
import { FollowingClock } from "../support/clock";
import { addr, keyOf, nonceUsed as nonceUsedOn, payer as payerOn, type PaymentsApp } from "../support/paid-contract";
import { makePaymentsApp } from "../support/payments";

/** Starts the chain and builds both apps (at load time, so the routes can be listed as tests). */
export async function contractApps() {
  const PAY_TO = addr(keyOf("contract-pay-to"));
  const chain = await startChain();
  const payer = () => payerOn(chain);
  const nonceUsed = (header: string) => nonceUsedOn(chain, header);
  // The whole contract runs twice: with the page memo of the paid routes, and without it. anvil stamps its
  // blocks with the wall clock, and the official client signs validAfter and validBefore from it: each app's clock
  // follows it (the last block's time can be minutes old once the first app has been built on a busy machine).
  const apps: { pageMemo: boolean; t: PaymentsApp; clock: FollowingClock }[] = [];
  for (const pageMemo of [true, false]) {
    const clock = new FollowingClock(new Date());
    const t = await makePaymentsApp({
      clock,
      testRoute: false,
      outage: true,
      config: { pageMemo },
      x402: {
        networks: [{ network: NETWORK, asset: chain.asset, payTo: PAY_TO, rpcUrl: chain.rpcUrl }],
        settlement: { mode: "self", settlerKey: ANVIL_KEYS[0] },
        pollingIntervalMs: 50,
      },
    });
    // GET /v1/flows's example reads the seeded flows (idempotent; a no-op once db/seed/index.ts seeds them too).
    await seedFlows(t.database);
    apps.push({ pageMemo, t, clock });
  }
  return { PAY_TO, chain, payer, nonceUsed, apps };
}
