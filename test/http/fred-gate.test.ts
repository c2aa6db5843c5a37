// The FRED dialect's URL handling: `api_key` leaves the URL the rails, the payment description and the page memo see,
// however it is written, and everything else stays as sent.
import { describe, expect, test } from "bun:test";
import { withoutQueryParameter } from "../../src/http/url-parts";

const strip = (url: string) => withoutQueryParameter(url, "api_key");

describe("withoutQueryParameter", () => {
  test("first, last, only, repeated, percent-encoded name", () => {
    expect(strip("http://h/fred/series?api_key=s&series_id=UNRATE")).toBe("http://h/fred/series?series_id=UNRATE");
    expect(strip("http://h/fred/series?series_id=UNRATE&api_key=s")).toBe("http://h/fred/series?series_id=UNRATE");
    expect(strip("http://h/fred/series?api_key=s")).toBe("http://h/fred/series");
    expect(strip("http://h/fred/series?api_key=a&x=1&api_key=b")).toBe("http://h/fred/series?x=1");
    expect(strip("http://h/fred/series?api%5Fkey=s&x=1")).toBe("http://h/fred/series?x=1");
    expect(strip("http://h/fred/series?api_key")).toBe("http://h/fred/series");
  });
  test("other parameters keep their order and spelling; a fragment and a URL without a query are untouched", () => {
    expect(strip("http://h/p?b=2&api_key=s&a=%20x#frag")).toBe("http://h/p?b=2&a=%20x#frag");
    expect(strip("http://h/p")).toBe("http://h/p");
    expect(strip("http://h/p?api_keys=1&xapi_key=2")).toBe("http://h/p?api_keys=1&xapi_key=2");
  });
});
