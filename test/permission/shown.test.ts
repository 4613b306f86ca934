import { describe, expect, it } from "vitest"
import { PermissionShown } from "../../src/permission/shown.js"

describe("PermissionShown.of", () => {
  it("keeps the well-known keys that hold text, and nothing else", () => {
    expect(PermissionShown.of({ command: "npm test && git push", description: "Test, then push", workdir: "/repo", times: 2, hardLinks: ["a"] })).toEqual({
      command: "npm test && git push",
      description: "Test, then push",
      workdir: "/repo",
    })
    expect(PermissionShown.of({ url: "https://b.example/x", redirectedFrom: "https://a.example/" })).toEqual({ url: "https://b.example/x", redirectedFrom: "https://a.example/" })
  })

  it("ignores a well-known key that is empty or not text", () => {
    expect(PermissionShown.of({ diff: "", command: 42, url: { href: "https://a.example/" } })).toEqual({})
  })
})
