/**
 * Every built-in that asks lists, in `requests`, exactly what its `execute` asks (issue 13,
 * item 5): under rules that ask for everything, the requests the evaluation says would be asked
 * are the ones the tool asks when it runs, in order, with the same metadata (a diff apart, which
 * only running can know).
 */
import { link, mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Permission } from "../../src/permission/permission.js"
import { ApplyPatchTool } from "../../src/tool/builtin/apply-patch.js"
import { EditTool } from "../../src/tool/builtin/edit.js"
import { GlobTool } from "../../src/tool/builtin/glob.js"
import { GrepTool } from "../../src/tool/builtin/grep.js"
import { ReadTool } from "../../src/tool/builtin/read.js"
import { WebFetchTool } from "../../src/tool/builtin/webfetch.js"
import { WriteTool } from "../../src/tool/builtin/write.js"
import { ToolRequests } from "../../src/tool/requests.js"
import { Tool } from "../../src/tool/tool.js"
import { globalConfig } from "../lib/config.js"
import { type Answer, harnessLayer, makeHarness, settle } from "../lib/file-tools.js"

/** Every request asks, so every request the tool makes is published. */
const ASK_ALL = globalConfig({ permission: [{ action: "*", resource: "*", effect: "ask" }] })

type Shown = { readonly action: string; readonly resources: ReadonlyArray<string>; readonly metadata: Readonly<Record<string, unknown>> }

const withoutDiff = ({ diff: _diff, ...rest }: Readonly<Record<string, unknown>>) => rest

const cases: ReadonlyArray<{ readonly name: string; readonly tool: "read" | "write" | "edit" | "apply_patch" | "glob" | "grep" | "webfetch"; readonly input: (root: string) => unknown; readonly answer?: Answer }> = [
  { name: "read a file", tool: "read", input: () => ({ path: "a.txt" }) },
  { name: "read a file outside", tool: "read", input: (root) => ({ path: path.join(root, "outside", "o.txt") }) },
  { name: "read a hard-linked file", tool: "read", input: () => ({ path: "hard.txt" }) },
  { name: "write a new file", tool: "write", input: () => ({ path: "new/b.txt", content: "b\n" }) },
  { name: "write outside", tool: "write", input: (root) => ({ path: path.join(root, "outside", "w.txt"), content: "w\n" }) },
  { name: "edit", tool: "edit", input: () => ({ path: "a.txt", oldString: "hello", newString: "bye" }) },
  { name: "edit outside", tool: "edit", input: (root) => ({ path: path.join(root, "outside", "o.txt"), oldString: "out", newString: "in" }) },
  {
    name: "apply_patch: update, add and delete",
    tool: "apply_patch",
    input: () => ({ patchText: ["*** Begin Patch", "*** Update File: a.txt", "@@", "-hello", "+bye", "*** Add File: c.txt", "+c", "*** Delete File: d.txt", "*** End Patch"].join("\n") }),
  },
  { name: "glob", tool: "glob", input: () => ({ pattern: "*.txt" }) },
  { name: "glob outside", tool: "glob", input: (root) => ({ pattern: "*.txt", path: path.join(root, "outside") }) },
  { name: "grep outside", tool: "grep", input: (root) => ({ pattern: "out", path: path.join(root, "outside") }) },
  // Refused at the first ask: nothing goes on the network.
  { name: "webfetch on localhost", tool: "webfetch", input: () => ({ url: "http://localhost:9/x" }), answer: "reject" },
]

const toolOf = (name: (typeof cases)[number]["tool"]) => {
  if (name === "read") return ReadTool.make
  if (name === "write") return WriteTool.make
  if (name === "edit") return EditTool.make
  if (name === "apply_patch") return ApplyPatchTool.make
  if (name === "glob") return GlobTool.make
  if (name === "grep") return GrepTool.make
  return WebFetchTool.make
}

describe("ToolRequests: a built-in's requests are what its execute asks", () => {
  for (const c of cases)
    it.live(c.name, () =>
      Effect.gen(function* () {
        const harness = yield* makeHarness
        yield* Effect.promise(async () => {
          await mkdir(path.join(harness.root, "outside"), { recursive: true })
          await writeFile(path.join(harness.root, "outside", "o.txt"), "out\n")
          await writeFile(path.join(harness.work, "a.txt"), "hello\n")
          await writeFile(path.join(harness.work, "d.txt"), "d\n")
          await writeFile(path.join(harness.work, "h.txt"), "h\n")
          await link(path.join(harness.work, "h.txt"), path.join(harness.work, "hard.txt"))
        })
        const { expected, asked } = yield* Effect.gen(function* () {
          const tool: Tool.AnyTool = yield* toolOf(c.tool)
          const permission = yield* Permission.Service
          const input = c.input(harness.root)
          const evaluation = ToolRequests.judgeAll(yield* Tool.requests(tool, input, { agent: "build" }), yield* ToolRequests.rules("build"), permission.context)
          const { asked } = yield* Effect.scoped(settle(tool, input, c.answer ?? "once"))
          return { expected: evaluation.requests.filter(({ decision }) => decision.effect === "ask").map(({ asked }) => asked), asked }
        }).pipe(Effect.scoped, Effect.provide(harnessLayer(harness.root, ASK_ALL)))
        const shown = (requests: ReadonlyArray<Shown>) => requests.map((request) => ({ action: request.action, resources: request.resources, metadata: withoutDiff(request.metadata) }))
        expect(shown(asked)).toEqual(shown(expected.map((request) => ({ ...request, metadata: request.metadata ?? {} }))))
        expect(asked.length).toBeGreaterThan(0)
      }),
    )
})
