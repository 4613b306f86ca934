import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import type { Config } from "../../src/config.js"
import { Config as ConfigService } from "../../src/config.js"
import type { Permission } from "../../src/permission/permission.js"
import type { PermissionRule } from "../../src/permission/rule.js"
import { ToolRegistry } from "../../src/tool/registry.js"
import { Tool } from "../../src/tool/tool.js"
import { context, makeEcho } from "../lib/echo.js"
import { runtimeLayer } from "../lib/runtime.js"
import { tmpdir } from "../lib/tmp.js"

const rule = (action: string, resource: string, effect: PermissionRule.Effect): Permission.Rule => ({ action, resource, effect })

const edit = Tool.withPermission(makeEcho(), "edit")
const tools = { read: makeEcho(), write: edit, edit, apply_patch: edit, bash: makeEcho() }

/** The names materialized for `rules`, with the switches and model rule of `config` passed as the call path passes them. */
const names = (rules: Permission.Ruleset, options: { model?: string; config?: Partial<Config.Info> } = {}) =>
  Effect.gen(function* () {
    const dir = yield* tmpdir
    return yield* Effect.gen(function* () {
      const registry = yield* ToolRegistry.Service
      yield* registry.register(tools)
      const catalog = yield* registry.materialize({ rules, ...ToolRegistry.fromConfig(yield* ConfigService.Service), ...(options.model === undefined ? {} : { model: options.model }) })
      return catalog.definitions.map((definition) => definition.name)
    }).pipe(Effect.provide(runtimeLayer({ outputDirectory: dir, ...(options.config === undefined ? {} : { config: options.config }) })))
  })

const visibility = [
  { name: "no rules shows every tool, sorted by name", rules: [], expected: ["apply_patch", "bash", "edit", "read", "write"] },
  { name: "[edit * deny] hides every tool whose action is edit", rules: [rule("edit", "*", "deny")], expected: ["bash", "read"] },
  { name: "[edit * deny, edit src/* allow] keeps the edit tools", rules: [rule("edit", "*", "deny"), rule("edit", "src/*", "allow")], expected: ["apply_patch", "bash", "edit", "read", "write"] },
  { name: "[* * deny, read * allow] keeps only read", rules: [rule("*", "*", "deny"), rule("read", "*", "allow")], expected: ["read"] },
  { name: "an ask keeps the tool visible", rules: [rule("bash", "*", "ask")], expected: ["apply_patch", "bash", "edit", "read", "write"] },
  { name: "a later allow over a deny keeps the tool", rules: [rule("bash", "*", "deny"), rule("bash", "git *", "allow")], expected: ["apply_patch", "bash", "edit", "read", "write"] },
  { name: "a later deny over an allow hides it", rules: [rule("bash", "git *", "allow"), rule("bash", "*", "deny")], expected: ["apply_patch", "edit", "read", "write"] },
]

describe("ToolRegistry.materialize", () => {
  for (const c of visibility) {
    it.live(c.name, () => Effect.gen(function* () {
      expect(yield* names(c.rules)).toEqual(c.expected)
    }))
  }

  it.live("one registry asked again and again answers each time from what it is given now, never from the last catalog", () => Effect.gen(function* () {
    const dir = yield* tmpdir
    const seen = yield* Effect.gen(function* () {
      const registry = yield* ToolRegistry.Service
      yield* registry.register(tools)
      const shown = (options: ToolRegistry.MaterializeOptions) => Effect.map(registry.materialize(options), (catalog) => catalog.definitions.map((definition) => definition.name).join(","))
      const steps: string[] = []
      steps.push(yield* shown({ rules: [] }))
      steps.push(yield* shown({ rules: [rule("bash", "*", "deny")] }))
      steps.push(yield* shown({ rules: [rule("bash", "*", "deny"), rule("bash", "git *", "allow")] }))
      // A rule that differs only in its condition: `when: sandboxed` allows nothing here, so bash is hidden.
      steps.push(yield* shown({ rules: [rule("bash", "*", "deny"), { ...rule("bash", "git *", "allow"), when: "sandboxed" }] }))
      steps.push(yield* shown({ rules: [rule("bash", "*", "deny"), rule("bash", "git *", "allow")], model: "openai/gpt-5.1" }))
      steps.push(yield* shown({ rules: [rule("bash", "*", "deny"), rule("bash", "git *", "allow")], model: "openai/gpt-5.1", switches: { read: false } }))
      // A registration made after the last catalog is in the next one.
      yield* Effect.scoped(
        Effect.gen(function* () {
          yield* registry.register({ glob: makeEcho() })
          steps.push(yield* shown({ rules: [] }))
        }),
      )
      steps.push(yield* shown({ rules: [] }))
      return steps
    }).pipe(Effect.provide(runtimeLayer({ outputDirectory: dir })))
    expect(seen).toEqual([
      "apply_patch,bash,edit,read,write",
      "apply_patch,edit,read,write",
      "apply_patch,bash,edit,read,write",
      "apply_patch,edit,read,write",
      "apply_patch,bash,read",
      "apply_patch,bash",
      "apply_patch,bash,edit,glob,read,write",
      "apply_patch,bash,edit,read,write",
    ])
  }))

  it.live("gives gpt- models apply_patch instead of edit and write", () => Effect.gen(function* () {
    expect(yield* names([], { model: "openai/gpt-5.1" })).toEqual(["apply_patch", "bash", "read"])
    expect(yield* names([], { model: "openai/gpt-4.1" })).toEqual(["bash", "edit", "read", "write"])
    expect(yield* names([], { model: "gpt-oss-120b" })).toEqual(["bash", "edit", "read", "write"])
    expect(yield* names([], { model: "anthropic/claude-sonnet-4" })).toEqual(["bash", "edit", "read", "write"])
  }))

  it.live("config models.apply_patch replaces the default model rule", () => Effect.gen(function* () {
    const config = { models: { apply_patch: ["*claude*"] } }
    expect(yield* names([], { model: "anthropic/claude-sonnet-4", config })).toEqual(["apply_patch", "bash", "read"])
    expect(yield* names([], { model: "openai/gpt-5.1", config })).toEqual(["bash", "edit", "read", "write"])
  }))

  it.live("a feature switch leaves a tool out, and a leftover call to it is Unknown", () => Effect.gen(function* () {
    expect(yield* names([], { config: { tools: { bash: false } } })).toEqual(["apply_patch", "edit", "read", "write"])
    const dir = yield* tmpdir
    const outcome = yield* Effect.gen(function* () {
      const registry = yield* ToolRegistry.Service
      yield* registry.register(tools)
      const catalog = yield* registry.materialize({ rules: [], switches: { bash: false } })
      return yield* catalog.settle({ id: "call_1", name: "bash", input: { text: "ls" } }, context)
    }).pipe(Effect.provide(runtimeLayer({ outputDirectory: dir, config: { tools: { bash: false } } })))
    expect(outcome).toEqual({ type: "error", message: ToolRegistry.Messages.unknownTool("bash") })
  }))

  it.live("definitions carry the registered name and provider-ready schemas", () => Effect.gen(function* () {
    const dir = yield* tmpdir
    const definitions = yield* Effect.gen(function* () {
      const registry = yield* ToolRegistry.Service
      yield* registry.register({
        count: Tool.make({
          description: "Counts lines.",
          input: Schema.Struct({
            path: Schema.String.annotate({ description: "File to count" }),
            limit: Schema.optional(Schema.Int.annotate({ description: "Stop after this many" })),
          }),
          output: Schema.Struct({ lines: Schema.Int }),
          execute: () => Effect.succeed({ lines: 1 }),
        }),
      })
      return (yield* registry.materialize({ rules: [] })).definitions
    }).pipe(Effect.provide(runtimeLayer({ outputDirectory: dir })))
    expect(definitions).toMatchInlineSnapshot(`
      [
        {
          "description": "Counts lines.",
          "inputSchema": {
            "properties": {
              "limit": {
                "description": "Stop after this many",
                "maximum": 9007199254740991,
                "minimum": -9007199254740991,
                "type": "integer",
              },
              "path": {
                "description": "File to count",
                "type": "string",
              },
            },
            "required": [
              "path",
            ],
            "type": "object",
          },
          "name": "count",
          "outputSchema": {
            "properties": {
              "lines": {
                "maximum": 9007199254740991,
                "minimum": -9007199254740991,
                "type": "integer",
              },
            },
            "required": [
              "lines",
            ],
            "type": "object",
          },
        },
      ]
    `)
  }))

  it.live("lists the permission action of every registered tool, with the shared ones", () => Effect.gen(function* () {
    const dir = yield* tmpdir
    const actions = yield* Effect.gen(function* () {
      const registry = yield* ToolRegistry.Service
      yield* registry.register(tools)
      return registry.actions()
    }).pipe(Effect.provide(runtimeLayer({ outputDirectory: dir })))
    // write and apply_patch ask edit; external_directory is asked by every tool that takes a path.
    expect(actions).toEqual(["bash", "edit", "external_directory", "read"])
  }))
})
