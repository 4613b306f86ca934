import { mkdir, realpath, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, type Scope } from "effect"
import { Bus } from "../../../src/bus.js"
import { Config } from "../../../src/config.js"
import { InteractionStore } from "../../../src/interaction/store.js"
import { Location } from "../../../src/location/location.js"
import { Approvals } from "../../../src/permission/approvals.js"
import { AuditLog } from "../../../src/permission/audit-log.js"
import { Permission } from "../../../src/permission/permission.js"
import { Project } from "../../../src/project.js"
import { Session } from "../../../src/session.js"
import { Database } from "../../../src/storage/database.js"
import { FileAccess } from "../../../src/tool/builtin/file-access.js"
import { SkillTool } from "../../../src/tool/builtin/skill.js"
import { ToolOutputStore } from "../../../src/tool-output-store.js"
import { SkillCatalog } from "../../../src/tool/builtin/skill/catalog.js"
import { SkillDiscovery } from "../../../src/tool/builtin/skill/discovery.js"
import { Tool } from "../../../src/tool/tool.js"
import { promise } from "../../lib/cli.js"
import { settle, textOf } from "../../lib/file-tools.js"
import { tmpdir } from "../../lib/tmp.js"

/** A Location `<root>/work` as the runtime wires it: Project reads the project file, Config parses those bytes. */
const locationLayer = (root: string) => {
  const work = path.join(root, "work")
  const home = path.join(root, "home")
  const data = path.join(root, "data")
  const environment = { env: {}, home }
  const project = Project.layer.pipe(Layer.provideMerge(Layer.mergeAll(Bus.layer, Database.layer(path.join(data, "toolgate.db")), Location.layer(work))))
  const gate = Permission.layer({ home }).pipe(
    Layer.provideMerge(Layer.mergeAll(Session.layer, Approvals.layer, AuditLog.layer)),
    Layer.provideMerge(InteractionStore.layer),
    Layer.provideMerge(Config.layer({ location: work, environment }).pipe(Layer.provideMerge(project))),
  )
  const store = ToolOutputStore.projectLayer({ directory: path.join(data, "tool-output") })
  return Layer.mergeAll(SkillCatalog.layer({ environment }), FileAccess.layer({ home })).pipe(Layer.provideMerge(store), Layer.provideMerge(gate))
}

type Services = Scope.Scope | Layer.Success<ReturnType<typeof locationLayer>>

const inLocation = <A, E>(root: string, body: Effect.Effect<A, E, Services>) => body.pipe(Effect.provide(locationLayer(root)), Effect.scoped)

const withTool = <A, E>(root: string, body: (tool: Effect.Success<typeof SkillTool.make>) => Effect.Effect<A, E, Services>) => inLocation(root, Effect.flatMap(SkillTool.make, body))

const trust = (root: string) => inLocation(root, Effect.flatMap(Project.Service, (project) => project.trust))

const writeSkill = (folder: string, description: string) =>
  promise(async () => {
    await mkdir(folder, { recursive: true })
    await writeFile(path.join(folder, SkillDiscovery.SKILL_FILE), `---\ndescription: ${description}\n---\nSteps.\n`)
  })

/** A real root with `work/.git`, `work/toolgate.json` holding `config` (when given), and `home`. */
const makeRoot = (config?: unknown) =>
  Effect.gen(function* () {
    const root = yield* Effect.flatMap(tmpdir, (dir) => promise(() => realpath(dir)))
    yield* promise(() => mkdir(path.join(root, "work", ".git"), { recursive: true }))
    yield* promise(() => mkdir(path.join(root, "home"), { recursive: true }))
    if (config !== undefined) yield* promise(() => writeFile(path.join(root, "work", "toolgate.json"), JSON.stringify(config)))
    return root
  })

const askedOf = (asked: ReadonlyArray<Permission.Request>) => asked.map(({ action, resources }) => ({ action, resources }))

describe("SkillCatalog and trust", () => {
  it.live("leaves out an untrusted project config's skills, each as a problem saying why, and loads them once the file is trusted", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot()
      const absolute = path.join(root, "elsewhere", "sk")
      yield* promise(() => writeFile(path.join(root, "work", "toolgate.json"), JSON.stringify({ skills: [absolute, "../outside/sk"] })))
      yield* writeSkill(absolute, "Absolute")
      yield* writeSkill(path.join(root, "outside", "sk"), "Relative")
      const file = path.join(root, "work", "toolgate.json")
      const relative = path.join(root, "outside", "sk")
      const untrusted = yield* inLocation(root, SkillCatalog.Service)
      expect(untrusted.skills).toEqual([])
      expect(untrusted.problems).toEqual([
        { folder: "sk", message: SkillCatalog.Messages.untrusted(absolute, file) },
        { folder: "sk", message: SkillCatalog.Messages.untrusted(relative, file) },
      ])
      expect(untrusted.problems[0]?.message).toBe(
        `Cannot load skills from ${absolute}: ${file} is not trusted, and a project config's skills count once the person trusts it (toolgate trust)`,
      )
      yield* trust(root)
      const trusted = yield* inLocation(root, SkillCatalog.Service)
      // Both are one skill `sk`: the later entry wins, as for any two roots.
      expect(trusted.skills.map(({ id, description, directory, origin }) => ({ id, description, directory, origin }))).toEqual([
        { id: "sk", description: "Relative", directory: relative, origin: "project" },
      ])
      expect(trusted.problems).toEqual([])
    }))

  it.live("asks external_directory on the real folder before loading a trusted project config's skill outside the Location", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot({ skills: ["../outside"] })
      const folder = path.join(root, "outside", "deploy")
      yield* writeSkill(folder, "Deploys")
      yield* trust(root)
      yield* withTool(root, (tool) =>
        Effect.gen(function* () {
          const refused = yield* settle(tool, { name: "deploy" }, { reply: "reject", message: "not that one" })
          expect(askedOf(refused.asked)).toEqual([{ action: "external_directory", resources: [`${folder}/*`] }])
          expect(textOf(refused.result)).toBe(Permission.Messages.corrected("not that one"))
          const { result, asked } = yield* settle(tool, { name: "deploy" })
          expect(askedOf(asked)).toEqual([{ action: "external_directory", resources: [`${folder}/*`] }])
          expect(asked[0]?.save).toEqual([`${folder}/*`])
          expect(textOf(result).split("\n").slice(0, 4)).toEqual(['<skill_content name="deploy">', "# Skill: deploy", "", "Steps."])
        }),
      )
    }))

  it.live("asks external_directory for a skill folder the Location links to outside, on its real path", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot()
      const target = path.join(root, "private", "notes")
      yield* writeSkill(target, "Private notes")
      yield* promise(() => mkdir(path.join(root, "work", ".claude", "skills"), { recursive: true }))
      yield* promise(() => symlink(target, path.join(root, "work", ".claude", "skills", "notes")))
      yield* withTool(root, (tool) =>
        Effect.gen(function* () {
          const refused = yield* settle(tool, { name: "notes" }, "reject")
          expect(askedOf(refused.asked)).toEqual([{ action: "external_directory", resources: [`${target}/*`] }])
          expect(refused.result._tag === "Failure" && refused.result.failure).toBeInstanceOf(Permission.DeclinedError)
        }),
      )
    }))

  it.live("loads a Location's own skill and the person's global skills without external_directory", () =>
    Effect.gen(function* () {
      const root = yield* makeRoot()
      yield* writeSkill(path.join(root, "home", ".claude", "skills", "mine"), "Mine")
      yield* writeSkill(path.join(root, "work", ".toolgate", "skills", "local"), "Local")
      yield* withTool(root, (tool) =>
        Effect.gen(function* () {
          expect(Tool.definition(SkillTool.name, tool).description.split("\n").slice(-2)).toEqual(["- local: Local", "- mine: Mine"])
          for (const name of ["mine", "local"]) {
            const { result, asked } = yield* settle(tool, { name })
            expect(result._tag).toBe("Success")
            expect(asked).toEqual([])
          }
        }),
      )
    }))
})
