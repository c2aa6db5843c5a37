// Development Lightning backend: signs real BOLT11 invoices (regtest, `lnbcrt…`) with a local node key for a fresh
// preimage, and "pays" them locally by revealing the preimage (`svc dev pay <bolt11>`). Nothing routes to this node
// key, so these invoices can never be paid on a real network: development and tests only.
// Invoices are stateless (an anonymous 402 flood once left 23,067 invoice files, 95 MB, in 60 s): the preimage is
// an HMAC of the invoice's random payment secret under the node key, so paying recomputes it from the invoice
// itself and nothing is kept per challenge. Only a payment leaves a mark (to pay once), and a mark goes once its
// invoice has expired, when it can no longer be paid anyway. The file store lets the CLI pay while the server runs.
import { createHmac } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type Bolt11 from "bolt11";
import { bolt11 } from "./bolt11";
import { uncompressedPublicKey } from "../secp256k1";
import { fromHex, sha256, toHex } from "../encoding";
import type { Clock, RandomSource } from "../types";
import type { CreateInvoice, Invoice, InvoiceBackend } from "./invoices";

export const REGTEST = { bech32: "bcrt", pubKeyHash: 0x6f, scriptHash: 0xc4, validWitnessVersions: [0, 1] };

export interface DevInvoiceStore {
  nodeKey(): Uint8Array;
  /** Atomically marks the invoice paid, kept until `expiresAt`; false when it already was. Forgets marks expired at `now`. */
  markPaid(paymentHash: string, expiresAt: Date, now: Date): boolean;
}

export function memoryInvoiceStore(nodeKey: Uint8Array): DevInvoiceStore {
  const paid = new Map<string, number>();
  return {
    nodeKey: () => nodeKey,
    markPaid(h, expiresAt, now) {
      for (const [k, until] of paid) if (until <= now.getTime()) paid.delete(k);
      if (paid.has(h)) return false;
      paid.set(h, expiresAt.getTime());
      return true;
    },
  };
}

/** A node key generated on first use and one mark file per paid, unexpired invoice under `dir`. Safe across processes. */
export function fileInvoiceStore(dir: string, random: RandomSource): DevInvoiceStore {
  const paidDir = join(dir, "paid");
  const keyFile = join(dir, "node-key");
  let key: Uint8Array | null = null;
  // Per-invoice files of earlier versions: nothing reads them now.
  rmSync(join(dir, "invoices"), { recursive: true, force: true });
  return {
    nodeKey() {
      if (key) return key;
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!existsSync(keyFile)) writeFileSync(keyFile, toHex(random.bytes(32)) + "\n", { mode: 0o600, flag: "wx" });
      key = fromHex(readFileSync(keyFile, "utf8").trim());
      return key;
    },
    markPaid(h, expiresAt, now) {
      mkdirSync(paidDir, { recursive: true, mode: 0o700 });
      pruneExpiredMarks(paidDir, now);
      try {
        // The name carries the expiry, so pruning reads no file.
        writeFileSync(join(paidDir, `${Math.ceil(expiresAt.getTime() / 1000)}-${h}`), "", { mode: 0o600, flag: "wx" });
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** Deletes the paid marks whose invoice expired by `now`; returns how many. */
export function pruneExpiredMarks(paidDir: string, now: Date): number {
  if (!existsSync(paidDir)) return 0;
  let n = 0;
  for (const name of readdirSync(paidDir)) {
    const expires = Number(name.split("-")[0]);
    if (Number.isFinite(expires) && expires * 1000 <= now.getTime()) {
      rmSync(join(paidDir, name), { force: true });
      n++;
    }
  }
  return n;
}

/** The preimage of the invoice with payment secret `secret`: only the holder of the node key can compute it. */
function preimageOf(nodeKey: Uint8Array, secret: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac("sha256", nodeKey).update("dev-lightning preimage\0").update(secret).digest());
}

export function compressedPublicKey(privateKey: Uint8Array): string {
  const pub = uncompressedPublicKey(privateKey); // 0x04 || x || y
  return `${pub[64]! % 2 === 0 ? "02" : "03"}${toHex(pub.subarray(1, 33))}`;
}

export type PayResult =
  | { ok: true; preimage: string; paymentHash: string; amountMsat: string }
  | { ok: false; message: string };

export class DevLightning implements InvoiceBackend {
  readonly kind = "dev";
  constructor(
    private readonly store: DevInvoiceStore,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  get nodePublicKey(): string {
    return compressedPublicKey(this.store.nodeKey());
  }

  async createInvoice(req: CreateInvoice): Promise<Invoice> {
    const secret = this.random.bytes(32);
    const paymentHash = toHex(sha256(preimageOf(this.store.nodeKey(), secret)));
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    const encoded = bolt11().encode({
      network: REGTEST,
      millisatoshis: req.amountMsat.toString(),
      timestamp,
      tags: [
        { tagName: "payment_hash", data: paymentHash },
        { tagName: "payment_secret", data: toHex(secret) },
        { tagName: "description", data: req.memo },
        { tagName: "expire_time", data: req.expirySeconds },
      ],
    });
    const signed = bolt11().sign(encoded, Buffer.from(this.store.nodeKey()));
    const expiresAt = new Date((timestamp + req.expirySeconds) * 1000);
    return {
      paymentRequest: signed.paymentRequest!,
      paymentHashHex: paymentHash,
      amountMsat: req.amountMsat,
      expiresAt,
    };
  }

  /** Pays one of this node's invoices: checks its signature, payee and expiry, and reveals the preimage once. */
  pay(paymentRequest: string): PayResult {
    let decoded: ReturnType<typeof Bolt11.decode>;
    try {
      decoded = bolt11().decode(paymentRequest.trim(), REGTEST);
    } catch (e) {
      return { ok: false, message: `not a valid BOLT11 invoice (${(e as Error).message})` };
    }
    if (decoded.payeeNodeKey !== this.nodePublicKey)
      return {
        ok: false,
        message: "this invoice was not issued by the development Lightning node of this data directory",
      };
    const hash = decoded.tagsObject.payment_hash ?? "";
    const secret = decoded.tagsObject.payment_secret ?? "";
    const preimage = /^[0-9a-f]{64}$/.test(secret) ? preimageOf(this.store.nodeKey(), fromHex(secret)) : null;
    if (!preimage || toHex(sha256(preimage)) !== hash)
      return { ok: false, message: "unknown invoice (it was not created in this data directory)" };
    const now = this.clock.now();
    const expiresAt = new Date((decoded.timeExpireDate ?? (decoded.timestamp ?? 0) + 3600) * 1000);
    if (now.getTime() >= expiresAt.getTime()) return { ok: false, message: "the invoice has expired" };
    if (!this.store.markPaid(hash, expiresAt, now)) return { ok: false, message: "the invoice has already been paid" };
    return { ok: true, preimage: toHex(preimage), paymentHash: hash, amountMsat: decoded.millisatoshis ?? "0" };
  }
}
