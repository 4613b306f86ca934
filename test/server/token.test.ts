/**
 * The server's bearer token (issue 17, item 2): random per start, or the person's own from
 * TOOLGATE_SERVER_TOKEN (a short one refused), compared over digests so different lengths are
 * compared in the same time and never throw.
 */
import { describe, expect, it } from "vitest"
import { ServerToken } from "../../src/server/token.js"

const OWN = "a-token-of-my-own-choosing"

describe("ServerToken", () => {
  it("generates a new 32-byte base64url token at each start", () => {
    const first = ServerToken.generate()
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(first, "base64url").length).toBe(32)
    expect(ServerToken.generate()).not.toBe(first)
  })

  const environments: ReadonlyArray<{ readonly name: string; readonly env: Record<string, string | undefined>; readonly expected: ReturnType<typeof ServerToken.fromEnvironment> }> = [
    { name: "unset", env: {}, expected: undefined },
    { name: "empty", env: { [ServerToken.ENV]: "" }, expected: undefined },
    { name: "one character short", env: { [ServerToken.ENV]: "x".repeat(ServerToken.MIN_LENGTH - 1) }, expected: { error: ServerToken.Messages.tooShort } },
    { name: "exactly the shortest length", env: { [ServerToken.ENV]: "x".repeat(ServerToken.MIN_LENGTH) }, expected: { token: "x".repeat(ServerToken.MIN_LENGTH) } },
    { name: "a token of one's own", env: { [ServerToken.ENV]: OWN }, expected: { token: OWN } },
  ]
  for (const c of environments)
    it(`reads ${ServerToken.ENV} when it is ${c.name}`, () => {
      expect(ServerToken.fromEnvironment(c.env)).toEqual(c.expected)
    })

  it("says why a short token is refused", () => {
    expect(ServerToken.Messages.tooShort).toBe("TOOLGATE_SERVER_TOKEN must be at least 16 characters")
  })

  const comparisons: ReadonlyArray<readonly [given: string, token: string, equal: boolean]> = [
    [OWN, OWN, true],
    [`${OWN}x`, OWN, false],
    [OWN.slice(0, -1), OWN, false],
    ["", OWN, false],
    [OWN, "", false],
    ["", "", true],
    [OWN.toUpperCase(), OWN, false],
    ["x".repeat(10_000), OWN, false],
    ["é", "e\u0301", false],
  ]
  for (const [given, token, equal] of comparisons)
    it(`equals(${JSON.stringify(given.slice(0, 30))}, ${JSON.stringify(token)}) is ${equal}, whatever the lengths`, () => {
      expect(ServerToken.equals(given, token)).toBe(equal)
      expect(ServerToken.matcher(token)(given)).toBe(equal)
    })
})
