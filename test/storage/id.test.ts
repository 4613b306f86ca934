import { describe, expect, it } from "vitest"
import { Id } from "../../src/storage/id.js"

describe("Id", () => {
  it("makes prefixed ids that sort in creation order and never repeat", () => {
    const ids = Array.from({ length: 20_000 }, () => Id.create("tool"))
    expect(ids.every((id) => /^tool_[0-9a-f]{16}[0-9A-Za-z]{10}$/.test(id))).toBe(true)
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("encodes its creation time", () => {
    const before = Date.now()
    const id = Id.create("ses")
    expect(Id.timestamp(id)).toBeGreaterThanOrEqual(before)
    expect(Id.timestamp(id)).toBeLessThanOrEqual(Date.now() + 1)
  })
})
