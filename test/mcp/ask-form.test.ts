import { describe, expect, it } from "vitest"
import { McpAskForm } from "../../src/mcp/ask-form.js"
import type { PermissionRequest } from "../../src/permission/request.js"
import { PermissionShown } from "../../src/permission/shown.js"
import type { Question } from "../../src/question.js"

const request = (overrides: Partial<PermissionRequest.Request> = {}): PermissionRequest.Request => ({
  id: "per_1",
  sessionID: "ses_1",
  action: "bash",
  resources: ["git push origin main"],
  save: ["git push *"],
  allows: { session: ["allow bash on anything matching git push * for the rest of this session"], project: ["always allow bash on anything matching git push * in this project"] },
  metadata: { command: "git push origin main", description: "Push the branch" },
  source: { toolCallID: "call_1", messageID: "msg_1" },
  createdAt: 0,
  ...overrides,
})

const accept = (content: Record<string, unknown>) => ({ action: "accept", content })

/** Every property of a form is a primitive, a single-select or a multi-select of primitives: nothing nested. */
const flat = (form: McpAskForm.Form) =>
  Object.values(form.requestedSchema.properties).every((property) => {
    if (property.type === "array") return typeof property.items === "object" && !("properties" in (property.items as object))
    return ["string", "number", "integer", "boolean"].includes(property.type as string) && !("properties" in property)
  })

describe("McpAskForm.permission", () => {
  it("offers the four decisions with the exact patterns, flat, and names tool, action, resources, command and description", () => {
    const form = McpAskForm.permission("bash", request())
    expect(form.requestedSchema).toEqual({
      type: "object",
      properties: {
        decision: {
          type: "string",
          title: "Decision",
          oneOf: [
            { const: "once", title: "Allow once" },
            { const: "session", title: "Allow for this session" },
            { const: "always", title: "Always allow: git push *" },
            { const: "reject", title: "Reject" },
          ],
        },
        feedback: { type: "string", title: McpAskForm.Titles.feedback },
      },
      required: ["decision"],
    })
    expect(flat(form)).toBe(true)
    expect(form.message).toBe(
      [
        "toolgate: the bash tool asks for bash on git push origin main",
        "Command: git push origin main",
        "Description: Push the branch",
        '"Allow for this session" would allow bash on anything matching git push * for the rest of this session.',
        '"Always allow" would always allow bash on anything matching git push * in this project.',
      ].join("\n"),
    )
  })

  it("shows an edit's diff, cut past the limit with what is left said", () => {
    const diff = `--- a\n+++ b\n${"+x\n".repeat(10_000)}`
    const form = McpAskForm.permission("edit", request({ action: "edit", resources: ["src/a.ts"], save: ["src/a.ts"], metadata: { diff } }))
    expect(form.message).toContain("toolgate: the edit tool asks for edit on src/a.ts")
    expect(form.message).toContain(`Diff:\n${diff.slice(0, McpAskForm.MAX_SHOWN)}`)
    expect(form.message).toContain(McpAskForm.Messages.cut(diff.length - McpAskForm.MAX_SHOWN))
  })

  it("escapes what would not show as itself in everything taken from the request, keeping the diff's lines and tabs", () => {
    const form = McpAskForm.permission(
      "bash",
      request({
        resources: ["echo \u001b[2K\u202e"],
        save: ["echo \u200b*"],
        allows: { session: ["allow bash on echo \u200b*"], project: ["always allow bash on echo \u200b*"] },
        metadata: { command: "echo \u001b]52;c;eA==\u0007", description: "ok\u2066", diff: "--- a\n+++ a\n@@ -1 +1 @@\n-\tx\r\n+y\u{e0041}\n" },
      }),
    )
    expect(form.message.split("\n")).toEqual([
      "toolgate: the bash tool asks for bash on echo \\u001b[2K\\u202e",
      "Command: echo \\u001b]52;c;eA==\\u0007",
      "Description: ok\\u2066",
      "\"Allow for this session\" would allow bash on echo \\u200b*.",
      "\"Always allow\" would always allow bash on echo \\u200b*.",
      "Diff:",
      "--- a",
      "+++ a",
      "@@ -1 +1 @@",
      "-\tx\\u000d",
      "+y\\u{e0041}",
      "",
    ])
    expect(form.requestedSchema.properties.decision?.oneOf).toContainEqual({ const: "always", title: "Always allow: echo \\u200b*" })
  })

  it("shows the directory a command runs in, what a file tool does where it asks external_directory, and a redirect's origin", () => {
    const bash = McpAskForm.permission("bash", request({ action: "external_directory", resources: ["/elsewhere/*"], metadata: { command: "rm -rf *", workdir: "/elsewhere" } }))
    expect(bash.message.split("\n").slice(0, 3)).toEqual(["toolgate: the bash tool asks for external_directory on /elsewhere/*", "Command: rm -rf *", "Directory: /elsewhere"])
    const write = McpAskForm.permission("write", request({ action: "external_directory", resources: ["/home/u/*"], metadata: { purpose: "edit /home/u/.bashrc" } }))
    expect(write.message.split("\n").slice(0, 2)).toEqual(["toolgate: the write tool asks for external_directory on /home/u/*", "For: edit /home/u/.bashrc"])
    const fetch = McpAskForm.permission("webfetch", request({ action: "webfetch", resources: ["https://b.example/"], metadata: { url: "https://b.example/", redirectedFrom: "https://a.example/" } }))
    expect(fetch.message.split("\n").slice(0, 2)).toEqual(["toolgate: the webfetch tool asks for webfetch on https://b.example/", "Redirected from: https://a.example/"])
  })

  it("cuts a long description as every answerer does", () => {
    const description = "x".repeat(PermissionShown.MAX_DESCRIPTION + 7)
    expect(McpAskForm.permission("bash", request({ metadata: { command: "sh", description } })).message.split("\n")[2]).toBe(`Description: ${PermissionShown.Messages.cut(description)}`)
  })

  it("offers only once and reject when the request saves nothing", () => {
    const form = McpAskForm.permission("read", request({ save: [], allows: { session: [], project: [] } }))
    const decision = form.requestedSchema.properties.decision as { oneOf: ReadonlyArray<{ const: string }> }
    expect(decision.oneOf.map((choice) => choice.const)).toEqual(["once", "reject"])
    expect(form.message).toContain(McpAskForm.Messages.noSave)
  })
})

describe("McpAskForm.permissionAnswer", () => {
  const saved = request()
  const cases: ReadonlyArray<readonly [string, unknown, PermissionRequest.Answer]> = [
    ["once", accept({ decision: "once" }), { reply: "once" }],
    ["session", accept({ decision: "session" }), { reply: "always", scope: "session" }],
    ["always", accept({ decision: "always" }), { reply: "always", scope: "project" }],
    ["reject with feedback", accept({ decision: "reject", feedback: "  use git push --dry-run  " }), { reply: "reject", message: "use git push --dry-run" }],
    ["reject with blank feedback", accept({ decision: "reject", feedback: "   " }), { reply: "reject" }],
    ["decline", { action: "decline" }, { reply: "reject" }],
    ["cancel", { action: "cancel" }, { reply: "reject" }],
    ["a decision the form did not offer", accept({ decision: "allow" }), { reply: "reject" }],
    ["no decision", accept({}), { reply: "reject" }],
    ["no content", { action: "accept" }, { reply: "reject" }],
    ["not an object", "once", { reply: "reject" }],
    ["missing", undefined, { reply: "reject" }],
  ]
  for (const [name, response, answer] of cases) it(`${name} → ${JSON.stringify(answer)}`, () => expect(McpAskForm.permissionAnswer(saved, response)).toEqual(answer))

  it("takes session or always as a reject when the request saves nothing (the form did not offer them)", () => {
    const nothing = request({ save: [], allows: { session: [], project: [] } })
    expect(McpAskForm.permissionAnswer(nothing, accept({ decision: "always" }))).toEqual({ reply: "reject" })
    expect(McpAskForm.permissionAnswer(nothing, accept({ decision: "session" }))).toEqual({ reply: "reject" })
  })
})

describe("McpAskForm.question", () => {
  const questions: Question.Request = {
    id: "que_1",
    sessionID: "ses_1",
    source: { toolCallID: "call_1", messageID: "msg_1" },
    questions: [
      { question: "Which database?", header: "Database", options: [{ label: "Postgres", description: "The server" }, { label: "SQLite", description: "A file" }] },
      { question: "Which features?", header: "Features", multiple: true, options: [{ label: "Auth", description: "Log in" }, { label: "Search", description: "Find" }] },
    ],
  }

  it("has one titled single-select per question, a multi-select where several may be chosen, and a text field each, all flat", () => {
    const form = McpAskForm.question(questions)
    expect(form.requestedSchema.properties).toEqual({
      q1: { type: "string", title: "Database: Which database?", oneOf: [{ const: "Postgres", title: "Postgres" }, { const: "SQLite", title: "SQLite" }] },
      q1_own: { type: "string", title: "Database: your own answer (optional)" },
      q2: { type: "array", title: "Features: Which features?", items: { anyOf: [{ const: "Auth", title: "Auth" }, { const: "Search", title: "Search" }] } },
      q2_own: { type: "string", title: "Features: your own answer (optional)" },
    })
    expect(flat(form)).toBe(true)
    expect(form.message).toBe(
      ["toolgate: the agent asks 2 questions", "1. [Database] Which database?", "   - Postgres: The server", "   - SQLite: A file", "2. [Features] Which features?", "   - Auth: Log in", "   - Search: Find"].join("\n"),
    )
  })

  it("reads choices and own answers, drops what was not offered, and dismisses a declined form", () => {
    expect(McpAskForm.questionAnswer(questions, accept({ q1: "SQLite", q2: ["Auth", "Search", "Billing"], q2_own: "Export" }))).toEqual({
      reply: "answered",
      answers: [["SQLite"], ["Auth", "Search", "Export"]],
    })
    expect(McpAskForm.questionAnswer(questions, accept({ q1: "MySQL", q1_own: "MySQL" }))).toEqual({ reply: "answered", answers: [["MySQL"], []] })
    expect(McpAskForm.questionAnswer(questions, { action: "decline" })).toEqual({ reply: "dismissed" })
    expect(McpAskForm.questionAnswer(questions, { action: "cancel" })).toEqual({ reply: "dismissed" })
  })
})
