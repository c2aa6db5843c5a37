// Series generated for benchmarks when ../shared/data is absent.

/** 40 years of business days (1985-2024), a deterministic random walk with an empty value every ~60 days (holidays), as CSV. */
export function generatedDaily(): string {
  const lines = ["date,value"];
  let v = 5;
  let s = 12345;
  const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let t = Date.UTC(1985, 0, 1); t < Date.UTC(2025, 0, 1); t += 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() === 0 || d.getUTCDay() === 6) continue;
    v = Math.max(0.1, v + (rnd() - 0.5) * 0.1);
    lines.push(`${d.toISOString().slice(0, 10)},${rnd() < 1 / 60 ? "" : v.toFixed(2)}`);
  }
  return lines.join("\n") + "\n";
}
