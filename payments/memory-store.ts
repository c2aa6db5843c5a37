// An in-process ProofStore (single process only): for the package's own tests and tools. The service stores
// proofs in its database (db/repos/payments.ts), which makes reservations atomic across processes.
import type { ProofRecord, ProofResult, ProofStore } from "./types";

type Row = ProofRecord & {
  id: string;
  status: "reserved" | "settled" | "failed" | "released";
  leaseUntil: number;
  result: ProofResult | null;
};

export class MemoryProofStore implements ProofStore {
  // Not bounded: a store for tests and examples; a service keeps its proofs in its database (db/repos).
  readonly rows = new Map<string, Row>();
  private seq = 0;

  async reserve(record: ProofRecord, at: Date, leaseUntil: Date): Promise<string | null> {
    const key = `${record.rail}|${record.proofKey}`;
    const row = this.rows.get(key);
    if (
      row &&
      !(
        row.status === "released" ||
        row.status === "failed" ||
        (row.status === "reserved" && row.leaseUntil < at.getTime())
      )
    )
      return null;
    const id = String(++this.seq);
    this.rows.set(key, { ...record, id, status: "reserved", leaseUntil: leaseUntil.getTime(), result: null });
    return id;
  }

  async finish(id: string, result: ProofResult, _at: Date): Promise<void> {
    for (const row of this.rows.values()) {
      if (row.id === id) {
        row.status = result.status;
        row.result = result;
      }
    }
  }
}
