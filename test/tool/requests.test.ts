import { describe, expect, it } from "@effect/vitest"
import type { PermissionRule } from "../../src/permission/rule.js"
import { ToolRequests } from "../../src/tool/requests.js"

const rule = (action: string, resource: string, effect: PermissionRule.Effect): PermissionRule.Sourced => ({ action, resource, effect, source: { kind: "builtin", agent: "test" } })

const rulesOf = (configured: ReadonlyArray<PermissionRule.Sourced>, saved: ReadonlyArray<PermissionRule.Sourced> = []): ToolRequests.Rules => ({ configured, session: [], saved })

describe("ToolRequests", () => {
  it("gives a call the strictest effect of its requests: deny over ask over allow, allow for none", () => {
    expect(ToolRequests.strictest([])).toBe("allow")
    expect(ToolRequests.strictest(["allow", "ask", "allow"])).toBe("ask")
    expect(ToolRequests.strictest(["ask", "deny", "allow"])).toBe("deny")
    const rules = rulesOf([rule("*", "*", "allow"), rule("external_directory", "*", "ask"), rule("bash", "rm *", "deny")])
    const evaluation = ToolRequests.judgeAll([{ action: "external_directory", resources: ["/tmp/*"] }, { action: "bash", resources: ["ls", "rm x"] }], rules)
    expect(evaluation.requests.map(({ decision }) => decision.effect)).toEqual(["ask", "deny"])
    expect(evaluation.effect).toBe("deny")
  })

  it("judges opaque resources as the gate does: a wildcard allow asks, an exact rule allows, and explain says so", () => {
    const request = { action: "bash", resources: ['eval "x"'], opaque: true }
    const wildcard = rulesOf([rule("bash", "*", "allow")])
    const judged = ToolRequests.judge(request, wildcard)
    expect(judged.decision.effect).toBe("ask")
    expect(ToolRequests.explain(judged, wildcard).map(({ resource, raised }) => [resource, raised])).toEqual([['eval "x"', true]])
    expect(ToolRequests.judge(request, rulesOf([rule("bash", "*", "ask")], [rule("bash", 'eval "x"', "allow")])).decision.effect).toBe("allow")
    expect(ToolRequests.explain(ToolRequests.judge({ ...request, opaque: false }, wildcard), wildcard)[0]?.raised).toBe(false)
  })

  it("judges a sandboxed command's request with the rules for sandboxed commands, and any other without them", () => {
    const rules = rulesOf([rule("bash", "*", "ask"), { ...rule("bash", "*", "allow"), when: "sandboxed" }])
    expect(ToolRequests.judge({ action: "bash", resources: ["make"], sandboxed: true }, rules).decision.effect).toBe("allow")
    expect(ToolRequests.judge({ action: "bash", resources: ["make"] }, rules).decision.effect).toBe("ask")
  })

  it("counts the other forms of an aliased request only through rules that do not also match its first", () => {
    const request = { action: "webfetch", resources: ["http://localhost/", "http://127.0.0.1/", "http://[::1]/"], aliased: true } as const
    const named = ToolRequests.judge(request, rulesOf([rule("webfetch", "*", "ask"), rule("webfetch", "http://localhost/*", "allow")]))
    expect(named.asked).toEqual({ action: "webfetch", resources: ["http://localhost/"] })
    expect(named.decision.effect).toBe("allow")
    const address = ToolRequests.judge(request, rulesOf([rule("webfetch", "http://localhost/*", "allow"), rule("webfetch", "http://127.0.0.1/*", "deny")]))
    expect(address.asked.resources).toEqual(["http://localhost/", "http://127.0.0.1/"])
    expect(address.decision.effect).toBe("deny")
  })
})
