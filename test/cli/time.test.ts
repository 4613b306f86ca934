import { describe, expect, it } from "@effect/vitest"
import { CliTime } from "../../src/cli/time.js"

const NOW = Date.UTC(2025, 5, 10, 12, 0, 0)

describe("CliTime", () => {
  it("prints a time in UTC to the second, in a form --since takes back", () => {
    expect(CliTime.format(0)).toBe("1970-01-01T00:00:00Z")
    expect(CliTime.format(Date.UTC(2025, 5, 1, 8, 30, 15, 999))).toBe("2025-06-01T08:30:15Z")
    expect(CliTime.since(CliTime.format(NOW), 0)).toBe(NOW)
  })

  const cases: ReadonlyArray<readonly [string, number | undefined]> = [
    ["30s", NOW - 30 * CliTime.UNITS.s!],
    ["10m", NOW - 10 * CliTime.UNITS.m!],
    ["2h", NOW - 2 * CliTime.UNITS.h!],
    ["3d", NOW - 3 * CliTime.UNITS.d!],
    ["1w", NOW - CliTime.UNITS.w!],
    ["0m", NOW],
    ["2025-06-01", Date.UTC(2025, 5, 1)],
    ["2025-06-01T12:00", Date.UTC(2025, 5, 1, 12)],
    ["2025-06-01 12:00:30", Date.UTC(2025, 5, 1, 12, 0, 30)],
    ["2025-06-01T12:00:00.250Z", Date.UTC(2025, 5, 1, 12, 0, 0, 250)],
    ["2025-06-01T12:00:00+02:00", Date.UTC(2025, 5, 1, 10)],
    ["2025-06-01T00:30:00+02:00", Date.UTC(2025, 4, 31, 22, 30)],
    ["2025-02-30", undefined],
    ["2025-13-01", undefined],
    ["2025-06-01T25:00", undefined],
    ["yesterday", undefined],
    ["10", undefined],
    ["10 m", undefined],
    ["-2h", undefined],
    ["2H", undefined],
    ["1.5h", undefined],
    ["", undefined],
  ]
  for (const [text, expected] of cases)
    it(`reads --since ${JSON.stringify(text)} as ${expected === undefined ? "invalid" : CliTime.format(expected)}`, () => {
      expect(CliTime.since(text, NOW)).toBe(expected)
    })
})
