// Whether another process still runs, for files that name their owner's pid (the PGlite data-directory lock, the
// usage journal's live files).

/** True when a process with this pid exists (EPERM: it exists but belongs to another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: any) {
    return e?.code === "EPERM";
  }
}
