// The deterministic composer of ask answers (pure): prose built only from tool results, so every number it writes is
// one the results hold (verify.ts checks it anyway). The lead sentences come first (lead.ts, rank.ts: the direct
// answer with its number, place and period), each followed by its series' most salient insight facts (their own
// sentences, from get_insights) and, in a briefing, the peer at the same period; then how places were read
// ("'califronia' was read as California"), then the active signals' sentences (get_active_signals), strongest first.

export const DETERMINISTIC_MODEL = "deterministic-composer-v1 (no language model, no network)";

export type Section = { lead: string; facts: readonly string[]; peers: readonly string[] };
export type Composition = { sections: readonly Section[]; notes: readonly string[]; signals: readonly string[] };

export function composeAnswer(c: Composition): string {
  const parts: string[] = [];
  for (const s of c.sections) parts.push(s.lead, ...s.facts, ...s.peers);
  parts.push(...c.notes, ...c.signals);
  return parts.filter((p) => p.length > 0).join(" ");
}
