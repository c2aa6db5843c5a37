// Bounded disk for L402 challenges: every anonymous 402 made one invoice file the development backend never deleted
// (23,067 files, 95 MB, in 60 s of 402s). Invoices are now stateless (the preimage is recomputed from the invoice
// under the node key): a flood of challenges writes nothing, and a paid invoice's mark goes once the invoice expires.
// The flood runs on an injected clock across more than one invoice lifetime (10 minutes).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DevLightning, fileInvoiceStore, memoryInvoiceStore } from "payments";
import { ManualClock, seededRandom } from "../support/clock";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "svc-dev-ln-"));
  dirs.push(d);
  return d;
};
/** Every file under `dir` and their bytes. */
function footprint(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const st = statSync(join(dir, name));
    if (st.isFile()) files++, (bytes += st.size);
  }
  return { files, bytes };
}
const invoice = (node: DevLightning, sats = 21) =>
  node.createInvoice({ amountMsat: BigInt(sats * 1000), memo: "GET /v1/observations", expirySeconds: 600 });

describe("development Lightning invoices on disk", () => {
  test("12 minutes of challenges (one a second) write nothing past the node key; payments leave a mark only until their invoice expires", async () => {
    const dir = tempDir();
    const clock = new ManualClock("2026-11-29T12:00:00Z");
    const node = new DevLightning(fileInvoiceStore(dir, seededRandom(1)), clock, seededRandom(2));
    const first = await invoice(node);
    const before = footprint(dir);
    expect(before.files).toBe(1); // node-key
    const paid: string[] = [];
    for (let s = 0; s < 720; s++) {
      const inv = await invoice(node);
      if (s % 330 === 0) {
        const r = node.pay(inv.paymentRequest);
        expect(r.ok).toBe(true);
        paid.push(inv.paymentRequest);
      }
      clock.advance(1000);
    }
    // Payments at 0, 330 and 660 s: the first one's mark expired at 600 s and went with the payment at 660 s.
    expect(readdirSync(join(dir, "paid"))).toHaveLength(2);
    expect(footprint(dir)).toEqual({ files: 3, bytes: before.bytes });
    expect(node.pay(paid[2]!)).toEqual({ ok: false, message: "the invoice has already been paid" });
    // The first invoice, never paid, is still recognised (and refused as expired), with nothing kept for it.
    expect(node.pay(first.paymentRequest)).toEqual({ ok: false, message: "the invoice has expired" });
  });

  test("the preimage paid is the invoice's: sha256(preimage) = payment hash, amount from the invoice", async () => {
    const clock = new ManualClock("2026-11-29T12:00:00Z");
    const node = new DevLightning(memoryInvoiceStore(new Uint8Array(32).fill(7)), clock, seededRandom(3));
    const inv = await invoice(node, 1234);
    const r = node.pay(inv.paymentRequest);
    if (!r.ok) throw new Error(r.message);
    expect(new Bun.CryptoHasher("sha256").update(Buffer.from(r.preimage, "hex")).digest("hex")).toBe(
      inv.paymentHashHex,
    );
    expect(r.amountMsat).toBe("1234000");
  });

  test("another node key cannot pay it (the preimage is not recomputable without the key)", async () => {
    const clock = new ManualClock("2026-11-29T12:00:00Z");
    const a = new DevLightning(memoryInvoiceStore(new Uint8Array(32).fill(1)), clock, seededRandom(4));
    const b = new DevLightning(memoryInvoiceStore(new Uint8Array(32).fill(2)), clock, seededRandom(4));
    const inv = await invoice(a);
    expect(b.pay(inv.paymentRequest)).toEqual({
      ok: false,
      message: "this invoice was not issued by the development Lightning node of this data directory",
    });
  });

  test("the per-invoice files of earlier versions are removed when the store opens", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "invoices"));
    for (let i = 0; i < 50; i++) writeFileSync(join(dir, "invoices", `${i}.json`), "{}");
    fileInvoiceStore(dir, seededRandom(5));
    expect(readdirSync(dir)).toEqual([]);
  });
});
