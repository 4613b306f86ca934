/** How the sandbox setting is combined: trusted files in order, a project file only tightening it, the flag last. */
import { describe, expect, it } from "vitest"
import { SandboxMode } from "../../src/sandbox/mode.js"

describe("SandboxMode.combine", () => {
  it("is off with nothing set, and a later trusted file wins", () => {
    expect(SandboxMode.combine([])).toEqual(SandboxMode.OFF)
    expect(SandboxMode.combine([{ scope: "global", sandbox: "read-only", network: true }, { scope: "explicit", sandbox: "off" }])).toEqual({ sandbox: "off", network: true })
  })

  it("lets a project file turn the sandbox on or stricter, never off or the network on", () => {
    expect(SandboxMode.combine([{ scope: "global", sandbox: "workspace-write" }, { scope: "project", sandbox: "off", network: true }])).toEqual({ sandbox: "workspace-write", network: false })
    expect(SandboxMode.combine([{ scope: "project", sandbox: "workspace-write" }])).toEqual({ sandbox: "workspace-write", network: false })
    expect(SandboxMode.combine([{ scope: "global", sandbox: "workspace-write", network: true }, { scope: "project", sandbox: "read-only", network: false }])).toEqual({ sandbox: "read-only", network: false })
  })

  it("takes --sandbox over every file", () => {
    expect(SandboxMode.combine([{ scope: "global", sandbox: "read-only" }], "off").sandbox).toBe("off")
  })

  it("says what the person reads on a sandboxed request", () => {
    expect(SandboxMode.Messages.shown("workspace-write", "/repo", false)).toBe("sandboxed: writes only inside /repo, no network")
    expect(SandboxMode.Messages.shown("read-only", "/repo", true)).toBe("sandboxed: writes nothing outside a private temporary directory, network on")
  })
})
