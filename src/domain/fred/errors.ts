// FRED's error answers: {"error_code": 400, "error_message": "Bad Request.  ..."} in JSON and
// <error code="400" message="..."/> in XML, with the HTTP status equal to the code. The messages are FRED's own
// where its documentation and live answers show them (two spaces after "Bad Request."), and FRED-styled otherwise.
// Messages never carry a value the caller sent except a series id we do not hold or a parameter's name.
export type FredFileType = "xml" | "json";
export type FredError = { status: 400 | 402 | 404 | 423 | 429 | 500; message: string };

const KEY_HELP = "Read https://fred.stlouisfed.org/docs/api/api_key.html for more information.";

export const FRED_ERRORS = {
  apiKeyNotSet: (): FredError => ({ status: 400, message: `Bad Request.  Variable api_key is not set.  ${KEY_HELP}` }),
  apiKeyNotRegistered: (): FredError => ({
    status: 400,
    message: `Bad Request.  The value for variable api_key is not registered.  ${KEY_HELP}`,
  }),
  notSet: (name: string): FredError => ({ status: 400, message: `Bad Request.  Variable ${name} is not set.` }),
  seriesNotFound: (): FredError => ({ status: 400, message: "Bad Request.  The series does not exist." }),
  notOneOf: (name: string, allowed: readonly string[]): FredError => ({
    status: 400,
    message: `Bad Request.  Variable ${name} is not one of the following: ${allowed.map((a) => `'${a}'`).join(", ")}.`,
  }),
  notBetween: (name: string, low: number, high: number): FredError => ({
    status: 400,
    message: `Bad Request.  Variable ${name} is not between ${low} and ${high}.`,
  }),
  notNonNegative: (name: string): FredError => ({
    status: 400,
    message: `Bad Request.  Variable ${name} is not a non-negative integer.`,
  }),
  notDate: (name: string): FredError => ({
    status: 400,
    message: `Bad Request.  Variable ${name} is not a valid date in YYYY-MM-DD format.`,
  }),
  after: (first: string, second: string): FredError => ({
    status: 400,
    message: `Bad Request.  Variable ${first} can not be after variable ${second}.`,
  }),
  frequency: (reason: string): FredError => ({ status: 400, message: `Bad Request.  Variable frequency ${reason}.` }),
  paymentRequired: (): FredError => ({
    status: 402,
    message: `Payment Required.  Send a registered api_key, or pay for this request with x402 or L402 (the challenges are in this answer's headers and in the x402 body of the /v1 API). ${KEY_HELP}`,
  }),
} as const;

export function xmlAttribute(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** The error body and its content type, in the file type asked for (XML when none or an unknown one was). */
export function renderFredError(error: FredError, fileType: FredFileType): { body: string; contentType: string } {
  if (fileType === "json") {
    return {
      body: JSON.stringify({ error_code: error.status, error_message: error.message }),
      contentType: "application/json; charset=UTF-8",
    };
  }
  return {
    body: `<?xml version="1.0" encoding="utf-8" ?>\n<error code="${error.status}" message="${xmlAttribute(error.message)}"/>\n`,
    contentType: "text/xml; charset=UTF-8",
  };
}
