// How long to wait, in words a person reads at a glance: "42 s", "1 min 30 s", "23 h 42 min" (never "85283 s").
// - under a minute: whole seconds;
// - under an hour: minutes and seconds (the seconds left out when 0);
// - an hour or more: hours and minutes, the minutes rounded up (a wait is never understated: retrying at the time
//   given must not be refused again), and left out when 0.
// The Retry-After header keeps the plain seconds; this is for the message.

/** `seconds`: whole seconds to wait (rounded up when not whole; at least 0). */
export function waitText(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) {
    const rest = s % 60;
    return `${Math.floor(s / 60)} min${rest ? ` ${rest} s` : ""}`;
  }
  const minutes = Math.ceil(s / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${h} h${m ? ` ${m} min` : ""}`;
}
