// Nodes on one database share their payment secrets (rules: src/domain/payment-secrets.ts): before the rails are
// built, each secret this node uses is checked against the database's record, recorded when none is, adopted when
// another node generated it first, and a node whose configured secret differs refuses to start (ConfigError, one line
// naming the setting). Two nodes starting at once: one records, the other reads the record and decides again.
import { findPaymentSecret, recordPaymentSecret } from "../../db/repos/payments";
import type { Db } from "../../db/client";
import { decideSecret, type LocalSecret, type SecretName } from "../domain/payment-secrets";
import { ConfigError, type Config } from "../config";
import type { Logger } from "../logger";
import { checkPaymentConfig, generatedSecrets, type GeneratedSecrets } from "../payments";
import type { Deps } from "../deps";
import { sha256Hex } from "payments";

/** The generated secrets this node is to use (its own, or those the first node recorded); throws ConfigError when its secrets differ. */
export async function sharePaymentSecrets(
  db: Db,
  config: Config,
  deps: Pick<Deps, "random" | "clock"> & { logger: Logger },
): Promise<GeneratedSecrets> {
  checkPaymentConfig(config);
  const { l402, x402 } = config.payments;
  const own = generatedSecrets(config, deps);
  const out: GeneratedSecrets = { ...own };
  const problems: string[] = [];
  if (l402) {
    const local: LocalSecret = l402.rootKeys.length
      ? { origin: "configured", fingerprints: l402.rootKeys.map((k) => sha256Hex(k.trim().toLowerCase())), value: null }
      : { origin: "generated", fingerprint: sha256Hex(own.l402RootKey!), value: own.l402RootKey! };
    const used = await settle(db, "l402_root_key", local, deps, problems);
    if (used !== null) out.l402RootKey = used;
  }
  if (x402) {
    const address = (x402.payTo ?? own.x402PayTo!).toLowerCase();
    const local: LocalSecret = x402.payTo
      ? { origin: "configured", fingerprints: [address], value: address }
      : { origin: "generated", fingerprint: address, value: own.x402PayTo! };
    const used = await settle(db, "x402_pay_to", local, deps, problems);
    if (used !== null) out.x402PayTo = used;
  }
  if (problems.length)
    throw new ConfigError(
      `payment secrets differ between nodes on this database:\n${problems.map((p) => `  ${p}`).join("\n")}`,
    );
  return out;
}

/** Settles one secret with the record; the generated secret to use when it is another node's, else null. */
async function settle(
  db: Db,
  name: SecretName,
  local: LocalSecret,
  deps: Pick<Deps, "clock"> & { logger: Logger },
  problems: string[],
): Promise<string | null> {
  for (let round = 0; round < 2; round++) {
    const record = await findPaymentSecret(db, name);
    const d = decideSecret(name, record, local);
    if (d.kind === "use") return null;
    if (d.kind === "adopt") {
      deps.logger.info("payment secret shared: using the one the first node on this database generated", {
        secret: name,
      });
      return d.value;
    }
    if (d.kind === "refuse") {
      problems.push(d.message);
      return null;
    }
    if (await recordPaymentSecret(db, { name, ...d.record, recordedAt: deps.clock.now() }, record !== null)) {
      if (record !== null)
        deps.logger.warn("payment secret record replaced by this node's configured one", {
          secret: name,
          was: record.origin,
        });
      return null;
    }
  }
  throw new Error(`payment secret ${name}: the record kept changing while this node started`);
}
