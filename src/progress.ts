// Progress reporting for long seeds and imports: a redrawn bar on a terminal, a line per step
// otherwise (CI logs), nothing when silent.
export type Progress = {
  start(label: string, total: number): void;
  tick(n?: number): void;
  done(note?: string): void;
};

export const silentProgress: Progress = { start() {}, tick() {}, done() {} };

export function terminalProgress(stream: { write(s: string): unknown; isTTY?: boolean } = process.stderr): Progress {
  let label = "";
  let total = 0;
  let current = 0;
  let lastDraw = 0;
  const draw = (force = false) => {
    if (!stream.isTTY) return;
    const now = performance.now();
    if (!force && now - lastDraw < 80) return;
    lastDraw = now;
    const width = 30;
    const frac = total > 0 ? Math.min(1, current / total) : 1;
    const filled = Math.round(frac * width);
    stream.write(`\r${label.padEnd(28)} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${current}/${total}`);
  };
  return {
    start(l, t) {
      label = l;
      total = t;
      current = 0;
      lastDraw = 0;
      draw(true);
    },
    tick(n = 1) {
      current += n;
      draw();
    },
    done(note) {
      if (stream.isTTY) {
        draw(true);
        stream.write(note ? `  ${note}\n` : "\n");
      } else {
        stream.write(`${label}: ${current}/${total}${note ? ` ${note}` : ""}\n`);
      }
    },
  };
}
