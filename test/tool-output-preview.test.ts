import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { ToolOutputPreview } from "../src/tool-output-preview.js"

const PATH = "/data/tool-output/tool_0193a4c2b1f00000aZ3kP9qLx2"
const marker = ToolOutputPreview.Messages.marker(PATH)
const lines = (count: number, width = 10) => Array.from({ length: count }, (_, i) => `${i}`.padEnd(width, "x")).join("\n")

describe("ToolOutputPreview", () => {
  it("keeps the first ⌈n/2⌉ and last ⌊n/2⌋ lines of the line budget around the marker", () => {
    const text = lines(100, 2)
    const preview = ToolOutputPreview.preview(text, PATH, { maxLines: 9, maxBytes: 10_000 })
    expect(preview).toBe(`0x\n1x\n2x\n\n${marker}\n\n98\n99`)
  })

  it("cuts head and tail by bytes when the kept lines are still too large", () => {
    const text = "a".repeat(1_000)
    const budget = 40
    const maxBytes = ToolOutputPreview.byteLength(marker) + ToolOutputPreview.SEPARATOR_BYTES + budget
    expect(ToolOutputPreview.preview(`${text}\n${"b".repeat(1_000)}`, PATH, { maxLines: 100, maxBytes })).toBe(
      `${"a".repeat(20)}\n\n${marker}\n\n${"b".repeat(20)}`,
    )
  })

  it("shows both ends of a single line that is over the byte limit", () => {
    const maxBytes = ToolOutputPreview.byteLength(marker) + ToolOutputPreview.SEPARATOR_BYTES + 20
    const line = `${"h".repeat(10)}${"m".repeat(1_000)}${"t".repeat(10)}`
    expect(ToolOutputPreview.preview(line, PATH, { maxLines: 100, maxBytes })).toBe(`${"h".repeat(10)}\n\n${marker}\n\n${"t".repeat(10)}`)
  })

  it("keeps CRLF line endings whole at the end of the tail", () => {
    const text = Array.from({ length: 20 }, (_, i) => `r${i}`).join("\r\n") + "\r\n"
    expect(ToolOutputPreview.preview(text, PATH, { maxLines: 8, maxBytes: 10_000 })).toBe(`r0\r\nr1\n\n${marker}\n\nr18\r\nr19`)
  })

  it("never splits a UTF-8 character", () => {
    expect(ToolOutputPreview.headBytes("é".repeat(10), 5)).toBe("éé")
    expect(ToolOutputPreview.tailBytes("é".repeat(10), 5)).toBe("éé")
    expect(ToolOutputPreview.headBytes("😀😀", 7)).toBe("😀")
    expect(ToolOutputPreview.tailBytes("😀😀", 7)).toBe("😀")
    expect(ToolOutputPreview.headBytes("😀😀", 3)).toBe("")
  })

  it("gives the marker alone, clipped, when the limits are too small for anything else", () => {
    expect(ToolOutputPreview.preview(lines(50), PATH, { maxLines: 4, maxBytes: 100_000 })).toBe(marker)
    expect(ToolOutputPreview.preview(lines(50), PATH, { maxLines: 100, maxBytes: 12 })).toBe(marker.slice(0, 12))
  })

  it("counts lines without counting a final line break", () => {
    expect(ToolOutputPreview.lineCount("")).toBe(0)
    expect(ToolOutputPreview.lineCount("a")).toBe(1)
    expect(ToolOutputPreview.lineCount("a\n")).toBe(1)
    expect(ToolOutputPreview.lineCount("a\n\n")).toBe(2)
    expect(ToolOutputPreview.lineCount("a\nb")).toBe(2)
  })

  it("the tail preview keeps the end of shell output", () => {
    const preview = ToolOutputPreview.tailPreview(lines(100, 2), PATH, { maxLines: 7, maxBytes: 10_000 })
    expect(preview).toBe(`97\n98\n99\n\n${ToolOutputPreview.Messages.shellMarker(PATH)}`)
  })

  it("stays within both limits for any text and any limits", () => {
    const text = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 3_000 }),
      fc.array(fc.string({ maxLength: 80 }), { maxLength: 400 }).map((parts) => parts.join("\n")),
      fc.array(fc.constantFrom("a", "é", "😀", "\n", "\r\n", " "), { maxLength: 2_000 }).map((parts) => parts.join("")),
    )
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 4_000 }), (input, maxLines, maxBytes) => {
        const limits = { maxLines, maxBytes }
        for (const preview of [ToolOutputPreview.preview(input, PATH, limits), ToolOutputPreview.tailPreview(input, PATH, limits)]) {
          expect(ToolOutputPreview.byteLength(preview)).toBeLessThanOrEqual(maxBytes)
          expect(ToolOutputPreview.lineCount(preview)).toBeLessThanOrEqual(maxLines)
          expect(preview.isWellFormed()).toBe(true)
        }
      }),
      { numRuns: 500 },
    )
  })
})
