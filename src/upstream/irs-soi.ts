// IRS Statistics of Income county-to-county migration files. There is no API: the national files are plain CSVs,
// `countyinflow{YYZZ}.csv` (rows by destination county) and `countyoutflow{YYZZ}.csv` (rows by origin county), about
// 4-5 MB each, under config IRS_SOI_BASE_URL (default https://www.irs.gov/pub/irs-soi/). The year pair YYZZ compares
// returns filed in 20YY and 20ZZ. A file is fetched whole and parsed by src/domain/irs-soi-flows.ts (totals, "other
// flows" and non-migrants are not edges; -1 is suppressed). `fetch` is injected so tests can point it anywhere.
import { FlowFileError, irsYearPairPeriod } from "../domain/flows";
import { parseIrsSoiCountyFlows, type IrsSoiParse } from "../domain/irs-soi-flows";

export type IrsSoiDirection = "inflow" | "outflow";
export const IRS_SOI_DIRECTIONS: readonly IrsSoiDirection[] = ["inflow", "outflow"];

/** An upstream that could not be read: its URL and HTTP status (null when no answer came). */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}

export type IrsSoiFile = IrsSoiParse & { url: string; direction: IrsSoiDirection; yearPair: string };

export type IrsSoiClient = {
  /** The URL of one national file. */
  fileUrl(direction: IrsSoiDirection, yearPair: string): string;
  /** One national file, fetched and parsed. */
  countyFlows(direction: IrsSoiDirection, yearPair: string): Promise<IrsSoiFile>;
};

export type IrsSoiClientOptions = {
  baseUrl: string;
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  timeoutMs?: number;
};

export function createIrsSoiClient(opts: IrsSoiClientOptions): IrsSoiClient {
  const doFetch = opts.fetch ?? ((input: string, init?: RequestInit) => fetch(input, init));
  const base = opts.baseUrl.endsWith("/") ? opts.baseUrl : `${opts.baseUrl}/`;
  const fileUrl = (direction: IrsSoiDirection, yearPair: string) => {
    if (!irsYearPairPeriod(yearPair))
      throw new RangeError(`'${yearPair}' is not an IRS SOI year pair (YYZZ, e.g. 1415)`);
    return new URL(`county${direction}${yearPair}.csv`, base).toString();
  };
  return {
    fileUrl,
    async countyFlows(direction, yearPair) {
      const url = fileUrl(direction, yearPair);
      let res: Response;
      try {
        res = await doFetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 120_000) });
      } catch (e) {
        throw new UpstreamError(`IRS SOI: no answer from ${url}: ${(e as Error).message}`, url);
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new UpstreamError(
          `IRS SOI: ${url} answered ${res.status}${res.status === 404 ? " (no file for this year pair)" : ""}`,
          url,
          res.status,
        );
      }
      // Names are not read (regions name the places), so a legacy single-byte encoding cannot matter.
      const text = await res.text();
      try {
        return { ...parseIrsSoiCountyFlows(text, { yearPair }), url, direction, yearPair };
      } catch (e) {
        if (e instanceof FlowFileError) throw new UpstreamError(`IRS SOI: ${url}: ${e.message}`, url, res.status);
        throw e;
      }
    },
  };
}
