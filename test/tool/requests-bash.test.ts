/**
 * `permission eval` and the bash tool agree on every line of the bypass tables (issue 13, item 5):
 * for each table's rules, the evaluation of the bash tool's requests (ToolRequests.evaluate, what
 * the CLI prints) gives the effect the real tool reaches, and predicts exactly what it asks. The
 * tool runs a stand-in shell that only records that it ran, and records no snapshots; every
 * ask is answered once but the bash ask, which is rejected, so nothing a table stops ever runs.
 */
import { chmod, mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Stream } from "effect"
import { Bus } from "../../src/bus.js"
import { Permission } from "../../src/permission/permission.js"
import type { PermissionRule } from "../../src/permission/rule.js"
import { Session } from "../../src/session.js"
import { History } from "../../src/snapshot/history.js"
import { ApplicationTools } from "../../src/tool/application-tools.js"
import { BashTool } from "../../src/tool/builtin/bash.js"
import { ToolRegistry } from "../../src/tool/registry.js"
import { ToolRequests } from "../../src/tool/requests.js"
import { Tool } from "../../src/tool/tool.js"
import { ToolOutputStore } from "../../src/tool-output-store.js"
import { TABLES } from "../lib/bash-tables.js"
import { globalConfig } from "../lib/config.js"
import { harnessLayer, makeHarness } from "../lib/file-tools.js"

const layerFor = (root: string, rules: ReadonlyArray<PermissionRule.Sourced>) =>
  ToolRegistry.layerWithTools.pipe(
    Layer.provideMerge(ApplicationTools.layer),
    Layer.provideMerge(harnessLayer(root, globalConfig({ permission: rules.map(({ action, resource, effect }) => ({ action, resource, effect })) }))),
  )

/** What a call did: the effect it reached and every request it asked, as (action, resources). */
interface Seen {
  readonly effect: PermissionRule.Effect
  readonly asked: ReadonlyArray<readonly [string, ReadonlyArray<string>]>
}

/** What the evaluation predicts: the strictest effect, and its asks unless a request is denied (a denied call asks nothing, Tool.askAll). */
const predicted = (evaluation: ToolRequests.Evaluation): Seen => {
  const denied = evaluation.requests.some(({ decision }) => decision.effect === "deny")
  const reached = denied ? [] : evaluation.requests
  return { effect: evaluation.effect, asked: reached.filter(({ decision }) => decision.effect === "ask").map(({ asked }) => [asked.action, asked.resources] as const) }
}

/** Runs every line of a table through the tool and through the evaluation; the lines where they differ. */
const disagreements = (rules: ReadonlyArray<PermissionRule.Sourced>, commands: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const harness = yield* makeHarness
    const fake = path.join(harness.root, "fake", "bash")
    yield* Effect.promise(async () => {
      await mkdir(path.dirname(fake), { recursive: true })
      await writeFile(fake, `#!/bin/sh\necho "$@" >> '${path.join(harness.root, "ran")}'\n`)
      await chmod(fake, 0o755)
    })
    return yield* Effect.gen(function* () {
      // Snapshots are not what this test is about, and each costs a git run: the tool records none.
      const tool = yield* BashTool.makeWith({ env: { ...process.env, SHELL: fake } }).pipe(Effect.provide(Layer.mock(History.Service, { before: () => Effect.void })))
      const registry = yield* ToolRegistry.Service
      const permission = yield* Permission.Service
      const sessions = yield* Session.Service
      const bus = yield* Bus.Service
      yield* registry.register({ [BashTool.name]: tool })
      const session = yield* sessions.ensure({ agent: "build" })
      const asked: Permission.Request[] = []
      const stream = yield* bus.on(Permission.Asked)
      const answerer = yield* stream.pipe(
        Stream.runForEach(({ payload }) => {
          asked.push(payload)
          // Answered once up to the command's own ask, so every ask before it is seen: the
          // evaluation predicts them all, and an earlier refusal would end the call before them.
          const reply = payload.action === BashTool.name ? "reject" : "once"
          return permission.reply({ requestID: payload.id, reply }).pipe(Effect.catchTag("Permission.NotFoundError", () => Effect.void))
        }),
        Effect.forkScoped,
      )
      const context: Tool.Context = { sessionID: session.id, agent: "build", assistantMessageID: "msg_eval", toolCallID: "call_eval" }
      const found: Array<{ readonly command: string; readonly tool: Seen; readonly evaluation: Seen }> = []
      for (const command of commands) {
        asked.length = 0
        const result = yield* Effect.result(Tool.settle(tool, { id: "call_eval", name: BashTool.name, input: { command } }, context))
        const blocked = result._tag === "Failure" && result.failure._tag === "Permission.BlockedError"
        const seen: Seen = { effect: blocked ? "deny" : asked.length > 0 ? "ask" : "allow", asked: asked.map((request) => [request.action, request.resources] as const) }
        const evaluation = predicted(yield* ToolRequests.evaluate(BashTool.name, { command }, { agent: "build" }))
        if (JSON.stringify(seen) !== JSON.stringify(evaluation)) found.push({ command, tool: seen, evaluation })
      }
      yield* Fiber.interrupt(answerer)
      return found
    }).pipe(Effect.scoped, Effect.provide(layerFor(harness.root, rules)))
  })

describe("ToolRequests: permission eval agrees with the bash tool on every line of the bypass tables", () => {
  for (const table of TABLES)
    it.live(`${table.name} (${table.commands.length} ${table.commands.length === 1 ? "line" : "lines"})`, () =>
      Effect.gen(function* () {
        expect(yield* disagreements(table.rules, table.commands)).toEqual([])
      }),
    )
})
