/**
 * The hand-over of a call's rules to its first decision (permission/call-rules.ts): taken once,
 * and only for the session it was made for.
 */
import { describe, expect, it } from "@effect/vitest"
import { PermissionCallRules } from "../../src/permission/call-rules.js"
import type { Permission } from "../../src/permission/permission.js"

const rules: Permission.SessionRules = { configured: [], session: [], policy: [] }

describe("PermissionCallRules", () => {
  it("hands the rules to the first taker of their session, then to nobody", () => {
    const handed = PermissionCallRules.hand("ses_a", rules)
    expect(handed.take("ses_a")).toBe(rules)
    expect(handed.take("ses_a")).toBeUndefined()
  })

  it("hands nothing for another session, and keeps them for their own", () => {
    const handed = PermissionCallRules.hand("ses_a", rules)
    expect(handed.take("ses_b")).toBeUndefined()
    expect(handed.take("ses_a")).toBe(rules)
  })
})
