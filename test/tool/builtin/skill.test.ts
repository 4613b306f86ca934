import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, type Scope } from "effect"
import type { Config } from "../../../src/config.js"
import { Approvals } from "../../../src/permission/approvals.js"
import { Permission } from "../../../src/permission/permission.js"
import { Project } from "../../../src/project.js"
import { FileAccess } from "../../../src/tool/builtin/file-access.js"
import { SkillTool } from "../../../src/tool/builtin/skill.js"
import { ToolOutputStore } from "../../../src/tool-output-store.js"
import { SkillCatalog } from "../../../src/tool/builtin/skill/catalog.js"
import { SkillDiscovery } from "../../../src/tool/builtin/skill/discovery.js"
import { Tool } from "../../../src/tool/tool.js"
import { globalConfig } from "../../lib/config.js"
import { promise } from "../../lib/cli.js"
import { settle, textOf } from "../../lib/file-tools.js"
import { gateLayer, makeRoot } from "../../lib/permission.js"

type Services = Scope.Scope | SkillCatalog.Service | FileAccess.Service | Layer.Success<ReturnType<typeof gateLayer>>

/** Writes `<folder>/SKILL.md` with the given front matter and body, and any other files. */
const writeSkill = (folder: string, front: string, body: string, others: ReadonlyArray<string> = []) =>
  promise(async () => {
    await mkdir(folder, { recursive: true })
    await writeFile(path.join(folder, SkillDiscovery.SKILL_FILE), `---\n${front}---\n${body}`)
    for (const name of others) {
      await mkdir(path.dirname(path.join(folder, name)), { recursive: true })
      await writeFile(path.join(folder, name), name)
    }
  })

/** The Location's skill folder for project skills. */
const skillsOf = (root: string) => path.join(root, "work", ".toolgate", "skills")

/** The gate and the skill catalog of `<root>/work`, with `home` under the root. */
const withCatalog = <A, E>(root: string, body: Effect.Effect<A, E, Services>, config?: Partial<Config.Info>) =>
  body.pipe(
    Effect.provide(
      Layer.mergeAll(SkillCatalog.layer({ environment: { env: {}, home: path.join(root, "home") } }), FileAccess.layer({ home: path.join(root, "home") })).pipe(
        Layer.provideMerge(ToolOutputStore.projectLayer({ directory: path.join(root, "data", "tool-output") })),
        Layer.provideMerge(gateLayer(root, config === undefined ? {} : { config })),
      ),
    ),
    Effect.scoped,
  )

const withTool = <A, E>(root: string, body: (tool: Effect.Success<typeof SkillTool.make>) => Effect.Effect<A, E, Services>, config?: Partial<Config.Info>) =>
  withCatalog(root, Effect.flatMap(SkillTool.make, body), config)

describe("SkillTool", () => {
  it.live("describes the Location's skills, one line each, sorted by id", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* writeSkill(path.join(skillsOf(root), "review"), "description: Reviews a change\n", "Review.\n")
      yield* writeSkill(path.join(skillsOf(root), "a-folder"), "name: deploy\ndescription: Deploys the app\n", "Deploy.\n")
      yield* writeSkill(path.join(skillsOf(root), "bare"), "name: bare\n", "Bare.\n")
      const description = yield* withTool(root, (tool) => Effect.succeed(Tool.definition(SkillTool.name, tool).description))
      expect(description).toBe([SkillTool.DESCRIPTION, "", "Available skills:", "- bare", "- deploy: Deploys the app", "- review: Reviews a change"].join("\n"))
    }))

  it.live("lists the skills that could not be loaded, and answers a call for one with its problem", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* writeSkill(path.join(skillsOf(root), "good"), "description: Works\n", "Good.\n")
      yield* writeSkill(path.join(skillsOf(root), "broken"), "description: Fill: forms\n", "Broken.\n")
      const problem = SkillDiscovery.Messages.at(path.join(skillsOf(root), "broken", "SKILL.md"), 2, 14, "Nested mappings are not allowed in compact mappings")
      yield* withTool(root, (tool) =>
        Effect.gen(function* () {
          expect(Tool.definition(SkillTool.name, tool).description).toBe(
            [SkillTool.DESCRIPTION, "", "Available skills:", "- good: Works", "", SkillTool.Messages.problems, `- ${problem}`].join("\n"),
          )
          const { result, asked } = yield* settle(tool, { name: "broken" })
          expect(textOf(result)).toBe(problem)
          expect(asked).toEqual([])
        }),
      )
    }))

  it.live("returns the skill in the documented format, with at most ten of its other files, sorted", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      const folder = path.join(skillsOf(root), "pdf")
      const others = Array.from({ length: 11 }, (_, index) => `reference/part-${String(index).padStart(2, "0")}.md`)
      yield* writeSkill(folder, "name: pdf\ndescription: Fills PDF forms\n", "\n# Filling forms\n\nRun `scripts/fill.py`.\n", ["scripts/fill.py", ...others])
      yield* withTool(root, (tool) =>
        Effect.gen(function* () {
          const { result } = yield* settle(tool, { name: "pdf" })
          // Eleven reference files sort before scripts/: the first ten of them are listed, nothing after.
          const listed = others.slice(0, SkillTool.MAX_SKILL_FILES)
          expect(textOf(result)).toBe(
            [
              '<skill_content name="pdf">',
              "# Skill: pdf",
              "",
              "# Filling forms",
              "",
              "Run `scripts/fill.py`.",
              "",
              `Base directory for this skill: ${folder}`,
              "Relative paths in this skill are relative to this base directory.",
              "<skill_files>",
              ...listed.map((name) => `<file>${path.join(folder, name)}</file>`),
              "</skill_files>",
              "</skill_content>",
            ].join("\n"),
          )
          expect(result._tag === "Success" && result.success.structured).toEqual({
            name: "pdf",
            directory: folder,
            content: "# Filling forms\n\nRun `scripts/fill.py`.",
            files: others.slice(0, 10).map((name) => path.join(folder, name)),
          })
        }),
      )
    }))

  it.live("shows an empty file list when the skill has only its SKILL.md", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      const folder = path.join(skillsOf(root), "solo")
      yield* writeSkill(folder, "description: Alone\n", "Alone.\n")
      yield* withTool(root, (tool) =>
        Effect.gen(function* () {
          const { result } = yield* settle(tool, { name: "solo" })
          expect(textOf(result)).toBe(
            ['<skill_content name="solo">', "# Skill: solo", "", "Alone.", "", SkillTool.Messages.base(folder), "<skill_files>", "</skill_files>", "</skill_content>"].join("\n"),
          )
        }),
      )
    }))

  it.live("names the available skills when asked for an unknown one, without asking anything", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* writeSkill(path.join(skillsOf(root), "zeta"), "description: Z\n", "Z.\n")
      yield* writeSkill(path.join(skillsOf(root), "alpha"), "description: A\n", "A.\n")
      yield* withTool(root, (tool) =>
        Effect.gen(function* () {
          const { result, asked } = yield* settle(tool, { name: "beta" })
          expect(textOf(result)).toBe("Unknown skill: beta. Available skills: alpha, zeta")
          expect(asked).toEqual([])
        }),
      )
    }))

  it.live("is not offered when the Location has no skill and no problem, and says none are available", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* withCatalog(
        root,
        Effect.gen(function* () {
          expect(yield* SkillTool.offered).toBe(false)
          const tool = yield* SkillTool.make
          expect(Tool.definition(SkillTool.name, tool).description).toBe([SkillTool.DESCRIPTION, "", SkillTool.Messages.none].join("\n"))
          expect(textOf((yield* settle(tool, { name: "any" })).result)).toBe("Unknown skill: any. Available skills: none")
        }),
      )
      yield* writeSkill(path.join(skillsOf(root), "broken"), "name: [x]\n", "")
      expect(yield* withCatalog(root, SkillTool.offered)).toBe(true)
    }))

  it.live("asks skill on the id and saves exactly that id on always", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* writeSkill(path.join(skillsOf(root), "folder"), "name: deploy\ndescription: Deploys\n", "Deploy.\n")
      yield* writeSkill(path.join(skillsOf(root), "review"), "description: Reviews\n", "Review.\n")
      const config = globalConfig({ permission: [{ action: "skill", resource: "*", effect: "ask" }] })
      yield* withTool(
        root,
        (tool) =>
          Effect.gen(function* () {
            const { result, asked } = yield* settle(tool, { name: "deploy" }, "always")
            expect(result._tag).toBe("Success")
            expect(asked.map(({ action, resources, save }) => ({ action, resources, save }))).toEqual([{ action: "skill", resources: ["deploy"], save: ["deploy"] }])
            const project = yield* Project.Service
            const saved = yield* Effect.flatMap(Approvals.Service, (approvals) => approvals.list(project.id))
            expect(saved.map(({ action, resource }) => ({ action, resource }))).toEqual([{ action: "skill", resource: "deploy" }])
            expect((yield* settle(tool, { name: "deploy" })).asked).toEqual([])
            expect((yield* settle(tool, { name: "review" })).asked.map((request) => request.resources)).toEqual([["review"]])
          }),
        config,
      )
    }))

  it.live("shows nothing of a skill the rules deny", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot
      yield* writeSkill(path.join(skillsOf(root), "secret"), "description: Hidden\n", "Secret steps.\n")
      const config = globalConfig({ permission: [{ action: "skill", resource: "secret", effect: "deny" }] })
      yield* withTool(
        root,
        (tool) =>
          Effect.gen(function* () {
            const { result } = yield* settle(tool, { name: "secret" })
            expect(result._tag === "Failure" && result.failure).toBeInstanceOf(Permission.BlockedError)
          }),
        config,
      )
    }))
})
