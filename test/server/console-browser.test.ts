/**
 * The web console end to end (issue 18) in real Chromium against a real `toolgate serve` and real
 * calls that ask: each answer given from the page (keyboard only) and the call's outcome checked,
 * the reject cascade, "always" showing what it saves first, feedback, a question, revoking saved
 * approvals, an audit filter, explain of a chained bash command, a session's changes, signing in
 * without a fragment and reconnecting after the server restarts, and the asks view at 375 px.
 * Each view's screenshot is written to docs/console/ by this run.
 */
import { mkdirSync, readFileSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import type { Page } from "playwright-core"
import { ConsoleUrl } from "../../src/server/console-url.js"
import { Text } from "../../web/console/text.js"
import { browser } from "../lib/browser.js"
import { modelServer } from "../lib/openai-server.js"
import { ASK_BASH, type Server, folders, session, start } from "../lib/server.js"

const SHOTS = path.join(import.meta.dirname, "..", "..", "docs", "console")
mkdirSync(SHOTS, { recursive: true })

const CHAINED_RULES = [
  { action: "bash", resource: "*", effect: "ask" },
  { action: "bash", resource: "rm *", effect: "deny" },
  { action: "bash", resource: "git status*", effect: "allow" },
  // Covers the rule before it entirely: the rules view shows the audit's finding beside it.
  { action: "bash", resource: "git *", effect: "allow" },
]

/** How long a call may wait for the page's answer before the test fails naming it. */
const SETTLE_MS = 30_000

/** Runs in the page: presses f and, a few microtasks later (same task, before any paint), names the focused element. */
const FOCUS_AFTER_F = `(async () => {
  dispatchEvent(new KeyboardEvent("keydown", { key: "f", bubbles: true }))
  for (let turn = 0; turn < 5; turn++) await null
  return document.activeElement && document.activeElement.tagName
})()`

const shot = (page: Page, name: string) => Effect.promise(() => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true }))

/** A call that asks, started and not awaited: its outcome when it settles. */
const calling = (server: Server, sessionID: string, command: string, description = "say something") =>
  Promise.race([
    server.api(`/api/session/${sessionID}/call`, { body: { call: { name: "bash", input: { command, description } } } }).then((answer) => answer.body),
    // A call whose ask the page never answered fails the test saying which, instead of hanging it.
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the call ${JSON.stringify(command)} did not settle within ${SETTLE_MS} ms`)), SETTLE_MS).unref()),
  ])

const opened = (page: Page, server: Server) => Effect.promise(() => page.goto(ConsoleUrl.of(server.url, server.token)))

/** Waits until the page shows `count` asks. */
const asks = (page: Page, count: number) =>
  Effect.promise(() => page.locator('[data-testid="ask"]').count()).pipe(
    Effect.repeat({ until: (shown) => shown === count, schedule: Schedule.spaced("50 millis") }),
    Effect.timeoutOrElse({ duration: "20 seconds", orElse: () => Effect.die(new Error(`the page did not show ${count} asks`)) }),
  )

describe("the web console in Chromium", { timeout: 120_000 }, () => {
  it.live("answers asks from the keyboard: once, this session, always (after showing what it saves), reject with its cascade, feedback", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const chromium = yield* browser
      const page = yield* Effect.promise(() => chromium.newPage({ viewport: { width: 1100, height: 900 } }))
      yield* opened(page, server)
      yield* Effect.promise(() => page.waitForSelector('[data-testid="no-asks"]'))
      expect(yield* Effect.promise(() => page.textContent('[data-testid="no-asks"]'))).toBe(Text.noAsks)
      // The token left the address bar for sessionStorage.
      expect(page.url()).not.toContain(server.token)
      expect(yield* Effect.promise(() => page.evaluate(() => (globalThis as unknown as { sessionStorage: { getItem: (key: string) => string | null } }).sessionStorage.getItem("toolgate.token")))).toBe(server.token)

      // once
      const first = yield* session(server, { rules: ASK_BASH })
      const once = calling(server, first, "echo once", "print once")
      yield* asks(page, 1)
      const card = yield* Effect.promise(() => page.textContent('[data-testid="ask"]'))
      expect(card).toContain("echo once")
      expect(card).toContain("print once")
      expect(card).toContain(Text.rule("bash", "*", "ask", `session ${first} rule 0`))
      yield* shot(page, "asks")
      yield* Effect.promise(() => page.keyboard.press("o"))
      expect((yield* Effect.promise(() => once)).kind).toBe("success")
      yield* asks(page, 0)

      // this session: saved for the session only
      const forSession = calling(server, first, "echo session")
      yield* asks(page, 1)
      yield* Effect.promise(() => page.keyboard.press("s"))
      expect((yield* Effect.promise(() => forSession)).kind).toBe("success")
      const saved = (yield* Effect.promise(() => server.api("/api/permission/saved"))).body.data
      expect(saved.map((approval: { scope: string; action: string }) => [approval.scope, approval.action])).toEqual([["session", "bash"]])

      // always: the patterns and what they allow are shown before anything is saved
      const second = yield* session(server, { rules: ASK_BASH })
      const always = calling(server, second, "git status")
      yield* asks(page, 1)
      yield* Effect.promise(() => page.keyboard.press("a"))
      yield* Effect.promise(() => page.waitForSelector('[data-testid="always-confirm"]'))
      const confirm = yield* Effect.promise(() => page.textContent('[data-testid="always-confirm"]'))
      expect(confirm).toContain(Text.alwaysSaves)
      expect(confirm).toContain(Text.wouldAllow)
      expect((yield* Effect.promise(() => server.api("/api/permission/saved"))).body.data).toHaveLength(1)
      yield* shot(page, "asks-always")
      yield* Effect.promise(() => page.keyboard.press("Enter"))
      expect((yield* Effect.promise(() => always)).kind).toBe("success")
      const project = (yield* Effect.promise(() => server.api("/api/permission/saved"))).body.data.filter((approval: { scope: string }) => approval.scope === "project")
      expect(project).toHaveLength(1)

      // reject: the card names the other pending ask of the session it also declines
      const third = yield* session(server, { rules: ASK_BASH })
      const rejected = calling(server, third, "echo one")
      yield* asks(page, 1)
      const alsoDeclined = calling(server, third, "echo two")
      yield* asks(page, 2)
      const cascade = yield* Effect.promise(() => page.textContent('[data-testid="cascade"]'))
      expect(cascade).toContain(Text.cascade(1))
      yield* shot(page, "asks-cascade")
      yield* Effect.promise(() => page.keyboard.press("r"))
      const [one, two] = yield* Effect.promise(() => Promise.all([rejected, alsoDeclined]))
      expect([one.kind, two.kind]).not.toContain("success")
      yield* asks(page, 0)

      // feedback: typed in the page, read by the model
      const fourth = yield* session(server, { rules: ASK_BASH })
      const corrected = calling(server, fourth, "rm -rf build")
      yield* asks(page, 1)
      // the box has the focus before the browser handles another key (not after the next paint):
      // the key is dispatched in the page and the focus read within the same task
      const focused = yield* Effect.promise(() => page.evaluate(FOCUS_AFTER_F))
      expect(focused).toBe("TEXTAREA")
      yield* Effect.promise(() => page.keyboard.type("use npm run clean instead"))
      yield* Effect.promise(() => page.keyboard.press("Enter"))
      expect(JSON.stringify(yield* Effect.promise(() => corrected))).toContain("use npm run clean instead")

      // arrows move between asks; the key answers the selected one
      const fifth = yield* session(server, { rules: ASK_BASH })
      const sixth = yield* session(server, { rules: ASK_BASH })
      const top = calling(server, fifth, "echo top")
      yield* asks(page, 1)
      const bottom = calling(server, sixth, "echo bottom")
      yield* asks(page, 2)
      yield* Effect.promise(() => page.keyboard.press("ArrowDown"))
      yield* Effect.promise(() => page.keyboard.press("o"))
      expect((yield* Effect.promise(() => bottom)).kind).toBe("success")
      yield* asks(page, 1)
      yield* Effect.promise(() => page.keyboard.press("o"))
      expect((yield* Effect.promise(() => top)).kind).toBe("success")
    }))

  it.live("revokes saved approvals after confirming, filters the audit, explains a chained command, shows a session's changes", () =>
    Effect.gen(function* () {
      // The person's rules: commands ask, git status is allowed, rm is denied.
      const server = yield* start({
        setup: async ({ home }) => {
          await mkdir(path.join(home, ".config", "toolgate"), { recursive: true })
          await writeFile(path.join(home, ".config", "toolgate", "toolgate.json"), JSON.stringify({ permission: CHAINED_RULES }))
        },
      })
      const chromium = yield* browser
      const page = yield* Effect.promise(() => chromium.newPage({ viewport: { width: 1100, height: 900 } }))
      const id = yield* session(server, { rules: ASK_BASH })
      yield* opened(page, server)
      const saving = calling(server, id, "echo saved")
      yield* asks(page, 1)
      yield* Effect.promise(() => page.keyboard.press("a"))
      // Enter confirms only once the page shows what "always" saves: a slow render must not swallow it.
      yield* Effect.promise(() => page.waitForSelector('[data-testid="always-confirm"]'))
      yield* Effect.promise(() => page.keyboard.press("Enter"))
      yield* Effect.promise(() => saving)
      // A later call the saved approval allows: the approvals view counts it.
      expect((yield* Effect.promise(() => calling(server, id, "echo saved again"))).kind).toBe("success")
      // A denied call (for the audit filter) and a write (for the session's changes), under the build agent's own rules.
      const plain = yield* session(server)
      const denied = yield* Effect.promise(() => server.api(`/api/session/${plain}/call`, { body: { call: { name: "bash", input: { command: "git status && rm -rf x", description: "chained" } } } }))
      expect(denied.body.kind).not.toBe("success")
      yield* Effect.promise(() => writeFile(path.join(server.root, "notes.txt"), "before\n"))
      const written = yield* Effect.promise(() => server.api(`/api/session/${plain}/call`, { body: { call: { name: "write", input: { path: "notes.txt", content: "after\n" } } } }))
      expect(written.body.kind).toBe("success")

      yield* Effect.promise(() => page.click('[data-testid="tab-approvals"]'))
      yield* Effect.promise(() => page.waitForSelector('[data-testid="approval"]'))
      expect(yield* Effect.promise(() => page.textContent('[data-testid="approval"]'))).toContain(Text.allowedSince(1))
      yield* shot(page, "approvals")
      yield* Effect.promise(() => page.click('[data-testid="approval"] button'))
      expect(yield* Effect.promise(() => page.textContent('[data-testid="revoke-confirm"]'))).toContain(Text.confirmRevoke(1))
      expect((yield* Effect.promise(() => server.api("/api/permission/saved"))).body.data).toHaveLength(1)
      yield* Effect.promise(() => page.click(`[data-testid="revoke-confirm"] >> text=${Text.yes}`))
      yield* Effect.promise(() => page.waitForSelector('[data-testid="no-approvals"]'))
      expect((yield* Effect.promise(() => server.api("/api/permission/saved"))).body.data).toHaveLength(0)

      yield* Effect.promise(() => page.click('[data-testid="tab-audit"]'))
      yield* Effect.promise(() => page.waitForSelector('[data-testid="audit-row"]'))
      yield* Effect.promise(() => page.selectOption('[data-testid="audit-effect"]', "deny"))
      const effects = yield* Effect.promise(() => page.$$eval('[data-testid="audit-row"] td:nth-child(5)', (cells) => cells.map((cell) => cell.textContent)))
      expect(effects.length).toBeGreaterThan(0)
      expect(new Set(effects)).toEqual(new Set(["deny"]))
      yield* Effect.promise(() => page.click('[data-testid="audit-row"]'))
      expect(yield* Effect.promise(() => page.textContent('[data-testid="audit-detail"]'))).toContain('"effect": "deny"')
      // The row opens the call behind the decision: its input and what the model read.
      yield* Effect.promise(() => page.waitForSelector('[data-testid="call-input"]'))
      expect(JSON.parse((yield* Effect.promise(() => page.textContent('[data-testid="call-input"]'))) ?? "")).toEqual({ command: "git status && rm -rf x", description: "chained" })
      expect(yield* Effect.promise(() => page.textContent('[data-testid="call-kind"]'))).toBe(Text.callOutcome(denied.body.kind))
      expect(yield* Effect.promise(() => page.textContent('[data-testid="call-text"]'))).toBe(denied.body.message)
      yield* shot(page, "audit")

      yield* Effect.promise(() => page.click('[data-testid="tab-rules"]'))
      yield* Effect.promise(() => page.fill('[data-testid="explain-input"]', "git status && rm -rf x"))
      yield* Effect.promise(() => page.click('form.explain button[type="submit"]'))
      yield* Effect.promise(() => page.waitForSelector('[data-testid="explain-result"]'))
      expect(yield* Effect.promise(() => page.textContent('[data-testid="explain-effect"]'))).toBe("deny")
      const explained = yield* Effect.promise(() => page.textContent('[data-testid="explain-result"]'))
      expect(explained).toContain("git status, rm -rf x")
      expect(explained).toContain("rm -rf x: bash rm * deny")
      yield* Effect.promise(() => page.waitForSelector('[data-testid="effective-rules"]'))
      const rules = yield* Effect.promise(() => page.$$eval('[data-testid="rule"]', (rows) => rows.map((row) => row.textContent ?? "")))
      const mine = rules.filter((row) => row.includes("toolgate.json"))
      expect(mine.map((row) => /bash(.*?)(allow|ask|deny)/.exec(row)?.slice(1, 3))).toEqual([["*", "ask"], ["rm *", "deny"], ["git status*", "allow"], ["git *", "allow"]])
      const dead = mine[2] ?? ""
      expect(dead).toContain("dead-rule")
      yield* shot(page, "rules")

      yield* Effect.promise(() => page.click('[data-testid="tab-sessions"]'))
      yield* Effect.promise(() => page.click(`[data-testid="session"] >> text=${plain}`))
      yield* Effect.promise(() => page.waitForSelector('[data-testid="session-changes"] [data-testid="diff"]'))
      const diff = yield* Effect.promise(() => page.textContent('[data-testid="session-changes"]'))
      expect(diff).toContain("notes.txt")
      expect(diff).toContain("+after")
      // Revert with a preview first: nothing changes until it is confirmed.
      yield* Effect.promise(() => page.click('[data-testid="session-message"] button'))
      yield* Effect.promise(() => page.waitForSelector('[data-testid="revert-preview"]'))
      expect(yield* Effect.promise(() => page.textContent('[data-testid="revert-preview"]'))).toContain(Text.step("restore", "notes.txt"))
      expect(readFileSync(path.join(server.root, "notes.txt"), "utf8")).toBe("after\n")
      yield* shot(page, "sessions")
      yield* Effect.promise(() => page.click(`[data-testid="revert-preview"] >> text=${Text.doRevert}`))
      yield* Effect.promise(() => page.waitForSelector(`[data-testid="revert-done"] >> text=${Text.reverted(1)}`))
      expect(readFileSync(path.join(server.root, "notes.txt"), "utf8")).toBe("before\n")
      yield* Effect.promise(() => page.click(`text=${Text.unrevert}`))
      yield* Effect.promise(() => page.waitForSelector(`[data-testid="revert-done"] >> text=${Text.unreverted(1)}`))
      expect(readFileSync(path.join(server.root, "notes.txt"), "utf8")).toBe("after\n")
    }))

  it.live("asks for the token without a fragment, and after the server restarts shows asks made meanwhile", () =>
    Effect.gen(function* () {
      const token = "a-console-test-token-0123456789"
      const where = yield* folders
      const first = yield* start({ folders: where, env: { TOOLGATE_SERVER_TOKEN: token } })
      const chromium = yield* browser
      const page = yield* Effect.promise(() => chromium.newPage())
      yield* Effect.promise(() => page.goto(ConsoleUrl.of(first.url)))
      yield* Effect.promise(() => page.fill('[data-testid="token"]', "wrong-token-wrong-token"))
      yield* Effect.promise(() => page.click('form.sign-in button[type="submit"]'))
      yield* Effect.promise(() => page.waitForSelector(`text=${Text.badToken}`))
      yield* Effect.promise(() => page.fill('[data-testid="token"]', token))
      yield* Effect.promise(() => page.click('form.sign-in button[type="submit"]'))
      yield* Effect.promise(() => page.waitForSelector('[data-testid="no-asks"]'))
      yield* Effect.promise(() => page.waitForSelector(`[data-testid="status"] >> text=${Text.connected}`))
      yield* first.stop
      yield* Effect.promise(() => page.waitForSelector(`[data-testid="status"] >> text=${Text.reconnecting}`))
      const second = yield* start({ folders: where, env: { TOOLGATE_SERVER_TOKEN: token }, port: first.port })
      const id = yield* session(second, { rules: ASK_BASH })
      const waiting = calling(second, id, "echo after the restart")
      yield* asks(page, 1)
      expect(yield* Effect.promise(() => page.textContent('[data-testid="ask"]'))).toContain("echo after the restart")
      yield* Effect.promise(() => page.keyboard.press("o"))
      expect((yield* Effect.promise(() => waiting)).kind).toBe("success")
    }))

  it.live("answers a question of the question tool in the same list", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const chromium = yield* browser
      const page = yield* Effect.promise(() => chromium.newPage())
      yield* opened(page, server)
      const id = yield* session(server)
      const asking = server.api(`/api/session/${id}/call`, {
        body: { call: { name: "question", input: { questions: [{ question: "Which database should the tests use?", header: "Database", options: [{ label: "SQLite", description: "one file" }, { label: "PostgreSQL", description: "a server" }] }] } } },
      })
      yield* Effect.promise(() => page.waitForSelector('[data-testid="question"]'))
      expect(yield* Effect.promise(() => page.textContent('[data-testid="question"]'))).toContain("Which database should the tests use?")
      yield* Effect.promise(() => page.click('[data-testid="question"] >> text=PostgreSQL'))
      yield* Effect.promise(() => page.click(`[data-testid="question"] >> text=${Text.answerQuestion}`))
      const answered = (yield* Effect.promise(() => asking)).body
      expect(answered.kind).toBe("success")
      expect(JSON.stringify(answered)).toContain("PostgreSQL")
      yield* Effect.promise(() => page.waitForSelector('[data-testid="no-asks"]'))
    }))

  it.live("counts new asks in the tab's title and raises a notification while the tab is hidden", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const chromium = yield* browser
      const context = yield* Effect.promise(() => chromium.newContext())
      // A notification the person allowed, recorded instead of shown.
      yield* Effect.promise(() =>
        context.addInitScript(() => {
          const scope = globalThis as unknown as { shown: string[]; Notification: unknown }
          scope.shown = []
          scope.Notification = Object.assign(
            function (this: unknown, title: string) {
              scope.shown.push(title)
            },
            { permission: "granted", requestPermission: async () => "granted" },
          )
        }),
      )
      const page = yield* Effect.promise(() => context.newPage())
      yield* opened(page, server)
      yield* Effect.promise(() => page.waitForSelector('[data-testid="no-asks"]'))
      yield* Effect.promise(() =>
        page.evaluate(() => {
          const doc = (globalThis as unknown as { document: { dispatchEvent: (event: unknown) => void } }).document
          Object.defineProperty(doc, "hidden", { value: true, configurable: true })
          doc.dispatchEvent(new Event("visibilitychange"))
        }),
      )
      const id = yield* session(server, { rules: ASK_BASH })
      const waiting = calling(server, id, "echo while hidden")
      yield* asks(page, 1)
      yield* Effect.promise(() => page.waitForFunction(() => (globalThis as unknown as { document: { title: string } }).document.title !== "toolgate"))
      expect(yield* Effect.promise(() => page.title())).toBe(Text.hiddenTitle(1))
      expect(yield* Effect.promise(() => page.evaluate(() => (globalThis as unknown as { shown: string[] }).shown))).toEqual([Text.notification("bash", "echo while hidden")])
      yield* Effect.promise(() => page.keyboard.press("o"))
      expect((yield* Effect.promise(() => waiting)).kind).toBe("success")
    }))

  it.live("works at 375 px: the ask and its answers fit the width", () =>
    Effect.gen(function* () {
      const server = yield* start()
      const chromium = yield* browser
      const page = yield* Effect.promise(() => chromium.newPage({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true }))
      yield* opened(page, server)
      const id = yield* session(server, { rules: ASK_BASH })
      const waiting = calling(server, id, "npm run build -- --a-rather-long-flag-that-must-wrap-somewhere-on-a-phone", "build it")
      yield* asks(page, 1)
      const width = yield* Effect.promise(() => page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth))
      expect(width).toBeLessThanOrEqual(375)
      yield* shot(page, "asks-phone")
      yield* Effect.promise(() => page.tap(`text=${Text.answers.once}`))
      expect((yield* Effect.promise(() => waiting)).kind).toBe("success")
    }))

  it.live("shows a run the server drives: its step, the model's text and calls live, its ask answered below it, then how it ended", () =>
    Effect.gen(function* () {
      const model = yield* modelServer([
        { text: "Checking the build.", calls: [{ id: "b1", name: "bash", input: { command: "echo built", description: "build it" } }] },
        { text: "The build passes." },
      ])
      const server = yield* start({
        config: ({ base }) => path.join(base, "serve.json"),
        setup: ({ base }) => writeFile(path.join(base, "serve.json"), JSON.stringify({ server: { model: { id: "local-model", base_url: model.baseURL } } })),
      })
      const chromium = yield* browser
      const page = yield* Effect.promise(() => chromium.newPage({ viewport: { width: 1100, height: 900 } }))
      yield* opened(page, server)
      yield* Effect.promise(() => page.waitForSelector('[data-testid="no-asks"]'))
      const id = yield* session(server, { rules: ASK_BASH })
      expect((yield* Effect.promise(() => server.api(`/api/session/${id}/run`, { body: { prompt: "Does it build?" } }))).status).toBe(202)
      yield* asks(page, 1)
      const run = page.locator('[data-testid="run"]')
      expect(yield* Effect.promise(() => run.locator("h2").textContent())).toBe(Text.runTitle(id, 1))
      expect(yield* Effect.promise(() => run.locator('[data-testid="run-text"]').textContent())).toBe("Checking the build.")
      expect(yield* Effect.promise(() => run.locator('[data-testid="run-call"]').textContent())).toBe(Text.runCall("bash", undefined))
      yield* shot(page, "run-asking")
      yield* Effect.promise(() => page.keyboard.press("o"))
      yield* Effect.promise(() => run.locator("h2").textContent()).pipe(
        Effect.repeat({ until: (title) => title === Text.runEnded(id, "done"), schedule: Schedule.spaced("50 millis") }),
        Effect.timeoutOrElse({ duration: "20 seconds", orElse: () => Effect.die(new Error("the page did not show the run's end")) }),
      )
      expect(yield* Effect.promise(() => run.locator('[data-testid="run-text"]').textContent())).toBe("The build passes.")
    }))
})
