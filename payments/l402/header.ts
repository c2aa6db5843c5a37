// L402 header formats (shared/research/l402.md §1):
// - challenge, exactly as Aperture emits and Aperture-style clients parse it with
//   `(LSAT|L402) macaroon="(.*?)", invoice="(.*?)"`: L402 macaroon="<std base64>", invoice="<bolt11>"
// - credential: Authorization: L402 <base64 macaroon>[,<more macaroons>]:<hex preimage>; `LSAT` accepted, any case,
//   several credentials in one header (Bun joins repeated headers with ", ").
export function challengeHeader(macaroonB64: string, invoice: string): string {
  return `L402 macaroon="${macaroonB64}", invoice="${invoice}"`;
}

export type Credential = { scheme: "L402" | "LSAT"; macaroon: string; preimage: string };

export const MAX_AUTHORIZATION_LENGTH = 8192;

const B64 = "[A-Za-z0-9+/_=-]+";
const CREDENTIAL = new RegExp(`(?:^|[\\s,])(L402|LSAT)\\s+(${B64}(?:,${B64})*):([0-9a-fA-F]{64})(?=$|[\\s,])`, "gi");

/** null: the header is not an L402 credential at all; "malformed": it claims to be one but cannot be read. */
export function parseAuthorization(value: string | undefined): Credential[] | "malformed" | null {
  if (!value || !/(^|[\s,])(L402|LSAT)(\s|$)/i.test(value)) return null;
  if (value.length > MAX_AUTHORIZATION_LENGTH) return "malformed";
  const out: Credential[] = [];
  for (const m of value.matchAll(CREDENTIAL)) {
    out.push({
      scheme: m[1].toUpperCase() as "L402" | "LSAT",
      macaroon: m[2].split(",")[0],
      preimage: m[3].toLowerCase(),
    });
  }
  return out.length ? out : "malformed";
}
