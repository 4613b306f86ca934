import { describe, expect, it } from "vitest"
import { BytePath } from "../../src/location/byte-path.js"

/** A deterministic generator, so a failure names the case again. */
const random = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648
}

describe("BytePath", () => {
  it("decodes valid UTF-8 as Buffer does, escapes every other byte, and encodes back to the same bytes", () => {
    expect(BytePath.decode(Buffer.from("café/naïve — 日本 😀.txt"))).toBe("café/naïve — 日本 😀.txt")
    expect(BytePath.decode(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e]))).toBe("caf\udce9.")
    // A leading byte-order mark is part of a name.
    expect(BytePath.decode(Buffer.from([0xef, 0xbb, 0xbf, 0x61]))).toBe("\ufeffa")
    // Overlong forms, UTF-16 surrogates, code points past U+10FFFF and cut sequences are bytes, not characters.
    expect(BytePath.decode(Buffer.from([0xc0, 0xaf]))).toBe("\udcc0\udcaf")
    expect(BytePath.decode(Buffer.from([0xed, 0xa0, 0x80]))).toBe("\udced\udca0\udc80")
    expect(BytePath.decode(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe("\udcf4\udc90\udc80\udc80")
    expect(BytePath.decode(Buffer.from([0xe6, 0x97]))).toBe("\udce6\udc97")
    const next = random(20261206)
    for (let round = 0; round < 3000; round++) {
      const bytes = Buffer.from(Array.from({ length: Math.floor(next() * 12) }, () => (next() < 0.5 ? 0x20 + Math.floor(next() * 0x5f) : Math.floor(next() * 256))))
      const name = BytePath.decode(bytes)
      expect(BytePath.encode(name).equals(bytes)).toBe(true)
      expect(BytePath.hasEscapes(name)).toBe(!Buffer.from(bytes.toString("utf8"), "utf8").equals(bytes))
    }
  })

  it("gives the file system a string for a UTF-8 name and the exact bytes otherwise", () => {
    expect(BytePath.fs("/work/café.txt")).toBe("/work/café.txt")
    expect(BytePath.fs("/work/caf\udce9.txt")).toEqual(Buffer.from([...Buffer.from("/work/caf"), 0xe9, ...Buffer.from(".txt")]))
  })

  it("shows each escaped byte as \\xNN", () => {
    expect(BytePath.shown("d\udcefr/in\udcff.txt")).toBe("d\\xefr/in\\xff.txt")
    expect(BytePath.shown("plain/é.txt")).toBe("plain/é.txt")
  })

  it("makes pathspecs Node can pass, from the clean folder of a name that has escapes, and within keeps only what was asked", () => {
    expect(BytePath.pathspecs(["a.txt", "src/caf\udce9.txt", ":odd"])).toEqual([":(literal)a.txt", ":(literal)src", ":(literal):odd"])
    // A name whose first component has an escaped byte: no pathspec narrows it, git lists everything.
    expect(BytePath.pathspecs(["a.txt", "d\udcefr/x"])).toEqual([])
    const wanted = BytePath.within(["src/caf\udce9.txt", "lib"])
    expect(["src/caf\udce9.txt", "src/cafe.txt", "lib/a.ts", "library.ts", "lib"].filter(wanted)).toEqual(["src/caf\udce9.txt", "lib/a.ts", "lib"])
    expect(BytePath.within(["."])("any/thing")).toBe(true)
  })
})
