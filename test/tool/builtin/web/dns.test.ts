import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WebDns } from "../../../../src/tool/builtin/web/dns.js"

describe("WebDns", () => {
  it.effect("returns an IP host as its own address, without a lookup", () =>
    Effect.gen(function* () {
      expect(yield* WebDns.lookup("127.0.0.1")).toEqual([{ address: "127.0.0.1", family: 4 }])
      expect(yield* WebDns.lookup("[::1]")).toEqual([{ address: "::1", family: 6 }])
    }))

  it.effect("looks a name up on the system resolver, every address of it", () =>
    Effect.gen(function* () {
      const found = yield* WebDns.lookup("localhost")
      expect(found.length).toBeGreaterThan(0)
      expect(found.every(({ address, family }) => address === "127.0.0.1" || (address === "::1" && family === 6) || family === 4)).toBe(true)
      expect(found.some(({ address }) => address === "127.0.0.1" || address === "::1")).toBe(true)
    }))

  it("names the failure by code and host", () => {
    expect(new WebDns.LookupError({ hostname: "nowhere.test", code: "ENOTFOUND" }).message).toBe("ENOTFOUND nowhere.test")
    expect(WebDns.Messages.failed("EAI_AGAIN", "x.test")).toBe("EAI_AGAIN x.test")
  })
})
