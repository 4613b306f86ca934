import { describe, expect, it } from "vitest"
import { JsonDepth } from "../src/json-depth.js"

describe("JsonDepth.deeperThan", () => {
  const cases: ReadonlyArray<readonly [text: string, limit: number, expected: boolean]> = [
    ["{}", 1, false],
    ["[[1]]", 1, true],
    ["[[1]]", 2, false],
    ['{"a":{"b":[1]}}', 3, false],
    ['{"a":{"b":[1]}}', 2, true],
    ['["[[[[", "{{{{"]', 1, false],
    ['["\\"[[[["]', 1, false],
    ['["\\\\", [[1]]]', 2, true],
    ["[[1],[2],[3]]", 2, false],
    ["[".repeat(100_000) + "]".repeat(100_000), 512, true],
  ]
  for (const [text, limit, expected] of cases)
    it(`tells ${JSON.stringify(text.slice(0, 24))} ${expected ? "nests" : "does not nest"} deeper than ${limit}`, () => {
      expect(JsonDepth.deeperThan(JSON.parse(text), limit)).toBe(expected)
    })
})
