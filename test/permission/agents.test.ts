import { describe, expect, it } from "vitest"
import { Config } from "../../src/config.js"
import { Agents } from "../../src/permission/agents.js"
import { PermissionEvaluate } from "../../src/permission/evaluate.js"
import type { ConfigValidate } from "../../src/config/validate.js"

const options = { home: "/home/ada", trusted: false }

const file = (scope: ConfigValidate.Scope, body: unknown): ConfigValidate.File => {
  const made = Config.ConfigValidate.file(`/${scope}/toolgate.json`, scope, body)
  if (made instanceof Error) throw made
  return made
}

const effectOf = (info: Config.Info, agent: string, action: string, resource: string, trusted = false) =>
  PermissionEvaluate.evaluateIn({ location: "/repo" }, action, resource, Agents.rules(info, agent, { ...options, trusted })).effect

describe("Agents", () => {
  const empty = Config.merge([])

  it("gives build everything inside the Location, asks outside and for .env files", () => {
    expect(effectOf(empty, "build", "edit", "src/a.ts")).toBe("allow")
    expect(effectOf(empty, "build", "bash", "rm -rf build")).toBe("allow")
    expect(effectOf(empty, "build", "external_directory", "/etc/*")).toBe("ask")
    expect(effectOf(empty, "build", "read", ".env")).toBe("ask")
    expect(effectOf(empty, "build", "read", "config/.env.local")).toBe("ask")
    expect(effectOf(empty, "build", "read", ".env.example")).toBe("allow")
  })

  it("pre-approves nothing outside the Location, saved tool output included (its own is no external path to a session)", () => {
    expect(effectOf(empty, "build", "external_directory", "/data/toolgate/tool-output/*")).toBe("ask")
    expect(effectOf(empty, "plan", "external_directory", "/data/toolgate/tool-output/prj_1/a/*")).toBe("ask")
    expect(effectOf(empty, "build", "external_directory", "/tmp/*")).toBe("ask")
  })

  it("gives plan build's rules, then no edits and an ask before every command", () => {
    expect(effectOf(empty, "plan", "edit", "src/a.ts")).toBe("deny")
    expect(effectOf(empty, "plan", "bash", "ls")).toBe("ask")
    expect(effectOf(empty, "plan", "read", "src/a.ts")).toBe("allow")
  })

  it("starts an agent defined only in config from nothing: global list, then its own", () => {
    const info = Config.merge([file("global", { permission: [{ action: "read", resource: "*", effect: "allow" }], agent: { review: { permission: [{ action: "grep", resource: "*", effect: "allow" }] } } })])
    expect(effectOf(info, "review", "read", "a.ts")).toBe("allow")
    expect(effectOf(info, "review", "grep", "TODO")).toBe("allow")
    expect(effectOf(info, "review", "edit", "a.ts")).toBe("ask")
  })

  it("denies everything to an agent that cannot be resolved", () => {
    expect(Agents.rules(empty, "intruder", options)).toEqual([{ action: "*", resource: "*", effect: "deny", source: { kind: "unknown-agent", agent: "intruder" } }])
  })

  it("orders rules built-in → global → project → explicit, each file's list before the agent's own", () => {
    const info = Config.merge([
      file("global", { permission: [{ action: "bash", resource: "a", effect: "deny" }], agent: { build: { permission: [{ action: "bash", resource: "b", effect: "deny" }] } } }),
      file("project", { permission: [{ action: "bash", resource: "c", effect: "deny" }] }),
      file("explicit", { permission: [{ action: "bash", resource: "d", effect: "deny" }] }),
    ])
    const resources = Agents.rules(info, "build", options).filter((rule) => rule.action === "bash").map((rule) => rule.resource)
    expect(resources).toEqual(["a", "b", "c", "d"])
  })

  it("expands ~ and $HOME in path actions only", () => {
    const info = Config.merge([file("global", { permission: [
      { action: "read", resource: "~/secrets/*", effect: "deny" },
      { action: "edit", resource: "$HOME/.ssh/*", effect: "deny" },
      { action: "external_directory", resource: "~", effect: "deny" },
      { action: "bash", resource: "~/bin/tool *", effect: "deny" },
    ] })])
    const built = Agents.rules(info, "build", options).slice(-4).map((rule) => rule.resource)
    expect(built).toEqual(["/home/ada/secrets/*", "/home/ada/.ssh/*", "/home/ada", "~/bin/tool *"])
  })

  it("expands ${HOME} as it does $HOME: a rule written so matched nothing", () => {
    const info = Config.merge([file("global", { permission: [
      { action: "edit", resource: "${HOME}/.ssh/*", effect: "deny" },
      { action: "external_directory", resource: "${HOME}", effect: "deny" },
    ] })])
    expect(Agents.rules(info, "build", options).slice(-2).map((rule) => rule.resource)).toEqual(["/home/ada/.ssh/*", "/home/ada"])
  })

  it("normalises path patterns so that ./, // and .. cannot make a rule silently never match", () => {
    const info = Config.merge([file("global", { permission: [
      { action: "read", resource: "./.env", effect: "deny" },
      { action: "edit", resource: "secrets//*", effect: "deny" },
      { action: "edit", resource: "src/../.env", effect: "deny" },
      { action: "read", resource: "/home/ada/proj/../proj/key/", effect: "deny" },
    ] })])
    // A folder's trailing slash means the folder and what is in it (permission/rule-spellings.ts).
    expect(Agents.rules(info, "build", options).slice(-5).map((rule) => rule.resource)).toEqual([".env", "secrets/*", ".env", "/home/ada/proj/key", "/home/ada/proj/key/*"])
    expect(effectOf(info, "build", "read", ".env")).toBe("deny")
    expect(effectOf(info, "build", "edit", "secrets/a")).toBe("deny")
  })

  it("applies an untrusted project file's allows as asks, and its denies at once", () => {
    const info = Config.merge([file("project", { permission: [
      { action: "external_directory", resource: "*", effect: "allow" },
      { action: "bash", resource: "curl *", effect: "deny" },
    ] })])
    expect(effectOf(info, "build", "external_directory", "/etc/*")).toBe("ask")
    expect(effectOf(info, "build", "bash", "curl x")).toBe("deny")
    expect(effectOf(info, "build", "external_directory", "/etc/*", true)).toBe("allow")
    const downgraded = Agents.rules(info, "build", options).find((rule) => rule.downgraded === true)
    expect(downgraded).toMatchObject({ action: "external_directory", resource: "*", effect: "ask", downgraded: true })
  })

  it("never lets an untrusted project file's ask weaken a deny: the plan agent's, or a global file's", () => {
    const project = file("project", { permission: [{ action: "edit", resource: "*", effect: "ask" }, { action: "edit", resource: "locked/*", effect: "ask" }] })
    const global = file("global", { permission: [{ action: "edit", resource: "locked/*", effect: "deny" }] })
    const info = Config.merge([global, project])
    expect(effectOf(info, "plan", "edit", "notes.md")).toBe("deny")
    expect(effectOf(info, "build", "edit", "locked/a")).toBe("deny")
    // Without a deny beneath it the ask stands; trusted, the project's rules are the last word again.
    expect(effectOf(info, "build", "edit", "notes.md")).toBe("ask")
    expect(effectOf(info, "plan", "edit", "notes.md", true)).toBe("ask")
    expect(effectOf(info, "build", "edit", "locked/a", true)).toBe("ask")
  })

  it("trusts global and explicit files always", () => {
    const info = Config.merge([file("global", { permission: [{ action: "external_directory", resource: "*", effect: "allow" }] }), file("explicit", { permission: [{ action: "webfetch", resource: "*", effect: "allow" }] })])
    expect(effectOf(info, "build", "external_directory", "/etc/*")).toBe("allow")
    expect(Agents.rules(info, "build", options).some((rule) => rule.downgraded === true)).toBe(false)
  })
})
