import { describe, expect, test } from "bun:test";
import { waitText } from "../../src/domain/wait";

describe("waitText", () => {
  test("under a minute: whole seconds, rounded up", () => {
    expect(waitText(0)).toBe("0 s");
    expect(waitText(1)).toBe("1 s");
    expect(waitText(0.2)).toBe("1 s");
    expect(waitText(59)).toBe("59 s");
    expect(waitText(-3)).toBe("0 s");
  });
  test("under an hour: minutes and seconds, seconds left out when 0", () => {
    expect(waitText(60)).toBe("1 min");
    expect(waitText(61)).toBe("1 min 1 s");
    expect(waitText(90)).toBe("1 min 30 s");
    expect(waitText(3599)).toBe("59 min 59 s");
  });
  test("an hour or more: hours and minutes, the minutes rounded up", () => {
    expect(waitText(3600)).toBe("1 h");
    expect(waitText(3601)).toBe("1 h 1 min");
    expect(waitText(3660)).toBe("1 h 1 min");
    // 85283 s = 23 h 41 min 23 s: the wait is not understated.
    expect(waitText(85_283)).toBe("23 h 42 min");
    expect(waitText(86_400)).toBe("24 h");
    // 59 min 30 s past the hour rounds up into the next hour.
    expect(waitText(3600 + 59 * 60 + 30)).toBe("2 h");
  });
});
