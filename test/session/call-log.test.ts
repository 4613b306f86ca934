/**
 * What the call log keeps of a call's input and outcome: long strings cut with a note of how
 * much was left out, everything else as given; an input that is not JSON is kept as its text.
 */
import { describe, expect, it } from "vitest"
import { CallLog } from "../../src/session/call-log.js"

describe("CallLog.bounded", () => {
  it("keeps an input as JSON, cutting each long string (nested too) and no other value", () => {
    const long = "y".repeat(CallLog.MAX_STRING + 5)
    expect(JSON.parse(CallLog.bounded({ path: "a.txt", edits: [{ old: long, n: 3, ok: true, none: null }] }))).toEqual({
      path: "a.txt",
      edits: [{ old: "y".repeat(CallLog.MAX_STRING) + CallLog.Messages.cut(5), n: 3, ok: true, none: null }],
    })
    expect(CallLog.bounded("y".repeat(CallLog.MAX_STRING))).toBe(JSON.stringify("y".repeat(CallLog.MAX_STRING)))
  })

  it("keeps an input that is not JSON as its text: a cycle, a bigint, nothing at all", () => {
    const cycle: Record<string, unknown> = { a: 1 }
    cycle.self = cycle
    expect(JSON.parse(CallLog.bounded(cycle))).toBe("[object Object]")
    expect(JSON.parse(CallLog.bounded({ n: 10n }))).toEqual({ n: "10" })
    expect(JSON.parse(CallLog.bounded(undefined))).toBeNull()
  })

  it("cuts an outcome text at the limit with the count of what was left out", () => {
    expect(CallLog.cut("abcdef", 4)).toBe("abcd" + CallLog.Messages.cut(2))
    expect(CallLog.cut("abcd", 4)).toBe("abcd")
    expect(CallLog.Messages.cut(2)).toBe("… (2 more characters not kept)")
  })
})
