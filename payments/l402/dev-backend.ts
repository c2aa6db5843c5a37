// Development Lightning backend: signs real BOLT11 invoices (regtest, `lnbcrt…`) with a local node key for a fresh
// preimage, and "pays" them locally by revealing the preimage (`svc dev pay <bolt11>`). Nothing routes to this node
// key, so these invoices can never be paid on a real network: development and tests only.
// Invoices live in a DevInvoiceStore; the file store lets the CLI pay while the server runs (the embedded database
// is single-process).
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type Bolt11 from "bolt11";
import { bolt11 } from "./bolt11";
import { uncompressedPublicKey } from "../secp256k1";
import { fromHex, sha256, toHex } from "../encoding";
import type { Clock, RandomSource } from "../types";
import type { CreateInvoice, Invoice, InvoiceBackend } from "./invoices";

export const REGTEST = { bech32: "bcrt", pubKeyHash: 0x6f, scriptHash: 0xc4, validWitnessVersions: [0, 1] };

export type DevInvoiceRecord = {
  paymentHash: string;
  preimage: string;
  paymentRequest: string;
  amountMsat: string;
  expiresAt: string;
};

export interface DevInvoiceStore {
  nodeKey(): Uint8Array;
  put(rec: DevInvoiceRecord): void;
  get(paymentHash: string): DevInvoiceRecord | null;
  /** Atomically marks an invoice paid; false when it already was. */
  markPaid(paymentHash: string): boolean;
}

export function memoryInvoiceStore(nodeKey: Uint8Array): DevInvoiceStore {
  const invoices = new Map<string, DevInvoiceRecord>();
  const paid = new Set<string>();
  return {
    nodeKey: () => nodeKey,
    put: (r) => void invoices.set(r.paymentHash, r),
    get: (h) => invoices.get(h) ?? null,
    markPaid: (h) => (paid.has(h) ? false : (paid.add(h), true)),
  };
}

/** One JSON file per invoice under `dir`, and a node key generated on first use. Safe across processes. */
export function fileInvoiceStore(dir: string, random: RandomSource): DevInvoiceStore {
  const invoicesDir = join(dir, "invoices");
  mkdirSync(invoicesDir, { recursive: true });
  const keyFile = join(dir, "node-key");
  let key: Uint8Array | null = null;
  const file = (h: string) => join(invoicesDir, `${h}.json`);
  return {
    nodeKey() {
      if (key) return key;
      if (!existsSync(keyFile)) writeFileSync(keyFile, toHex(random.bytes(32)) + "\n", { mode: 0o600, flag: "wx" });
      key = fromHex(readFileSync(keyFile, "utf8").trim());
      return key;
    },
    put(r) {
      const tmp = `${file(r.paymentHash)}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(r), { mode: 0o600 });
      renameSync(tmp, file(r.paymentHash));
    },
    get(h) {
      if (!/^[0-9a-f]{64}$/.test(h)) return null;
      try {
        return JSON.parse(readFileSync(file(h), "utf8")) as DevInvoiceRecord;
      } catch {
        return null;
      }
    },
    markPaid(h) {
      try {
        closeSync(openSync(`${file(h)}.paid`, "wx"));
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** Deletes invoice files older than `maxAgeMs` (by modification time). */
export function pruneInvoiceFiles(dir: string, now: Date, maxAgeMs: number): number {
  const invoicesDir = join(dir, "invoices");
  if (!existsSync(invoicesDir)) return 0;
  let n = 0;
  for (const name of readdirSync(invoicesDir)) {
    const p = join(invoicesDir, name);
    try {
      if (now.getTime() - statSync(p).mtimeMs > maxAgeMs) {
        rmSync(p);
        n++;
      }
    } catch {}
  }
  return n;
}

export function compressedPublicKey(privateKey: Uint8Array): string {
  const pub = uncompressedPublicKey(privateKey); // 0x04 || x || y
  return `${pub[64]! % 2 === 0 ? "02" : "03"}${toHex(pub.subarray(1, 33))}`;
}

export type PayResult = { ok: true; preimage: string; paymentHash: string; amountMsat: string } | { ok: false; message: string };

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
    const preimage = this.random.bytes(32);
    const paymentHash = toHex(sha256(preimage));
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    const encoded = bolt11().encode({
      network: REGTEST,
      millisatoshis: req.amountMsat.toString(),
      timestamp,
      tags: [
        { tagName: "payment_hash", data: paymentHash },
        { tagName: "payment_secret", data: toHex(this.random.bytes(32)) },
        { tagName: "description", data: req.memo },
        { tagName: "expire_time", data: req.expirySeconds },
      ],
    });
    const signed = bolt11().sign(encoded, Buffer.from(this.store.nodeKey()));
    const expiresAt = new Date((timestamp + req.expirySeconds) * 1000);
    this.store.put({ paymentHash, preimage: toHex(preimage), paymentRequest: signed.paymentRequest!, amountMsat: req.amountMsat.toString(), expiresAt: expiresAt.toISOString() });
    return { paymentRequest: signed.paymentRequest!, paymentHashHex: paymentHash, amountMsat: req.amountMsat, expiresAt };
  }

  /** Pays one of this node's invoices: checks its signature, payee and expiry, and reveals the preimage once. */
  pay(paymentRequest: string): PayResult {
    let decoded: ReturnType<typeof Bolt11.decode>;
    try {
      decoded = bolt11().decode(paymentRequest.trim(), REGTEST);
    } catch (e) {
      return { ok: false, message: `not a valid BOLT11 invoice (${(e as Error).message})` };
    }
    if (decoded.payeeNodeKey !== this.nodePublicKey) return { ok: false, message: "this invoice was not issued by the development Lightning node of this data directory" };
    const hash = decoded.tagsObject.payment_hash ?? "";
    const rec = this.store.get(hash);
    if (!rec) return { ok: false, message: "unknown invoice (it was not created in this data directory)" };
    if (this.clock.now().getTime() >= new Date(rec.expiresAt).getTime()) return { ok: false, message: "the invoice has expired" };
    if (!this.store.markPaid(hash)) return { ok: false, message: "the invoice has already been paid" };
    return { ok: true, preimage: rec.preimage, paymentHash: hash, amountMsat: rec.amountMsat };
  }
}
