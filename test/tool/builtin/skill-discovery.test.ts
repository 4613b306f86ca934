import { mkdir, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { Config } from "../../../src/config.js"
import { SkillCatalog } from "../../../src/tool/builtin/skill/catalog.js"
import { SkillDiscovery } from "../../../src/tool/builtin/skill/discovery.js"
import { SkillFrontMatter } from "../../../src/tool/builtin/skill/front-matter.js"
import { Location } from "../../../src/location/location.js"
import { Project } from "../../../src/project.js"
import { Database } from "../../../src/storage/database.js"
import { promise } from "../../lib/cli.js"
import { tmpdir } from "../../lib/tmp.js"

/** Writes `<folder>/SKILL.md`, with front matter when `front` is given. */
const skill = (folder: string, front: string | undefined, body = "Do the thing.\n") =>
  promise(async () => {
    await mkdir(folder, { recursive: true })
    await writeFile(path.join(folder, SkillDiscovery.SKILL_FILE), front === undefined ? body : `---\n${front}---\n${body}`)
  })

/** A home and a Location under a fresh root; discovery there with `configured` paths. */
const setup = Effect.gen(function* () {
  const root = yield* tmpdir
  const home = path.join(root, "home")
  const location = path.join(root, "work")
  yield* promise(() => mkdir(location, { recursive: true }))
  const discover = (configured: ReadonlyArray<string> = [], env: Record<string, string> = {}) =>
    promise(() => SkillDiscovery.discover({ location, environment: { env, home }, configured: configured.map((entry) => ({ entry, origin: "person" as const })) }))
  return { root, home, location, discover }
})

const summary = (found: SkillDiscovery.Found) => found.skills.map((entry) => `${entry.id}=${entry.description}`)

describe("SkillDiscovery", () => {
  it.live("reads every root in the documented order, the later winning on the same id", () =>
    Effect.gen(function* () {
      const { root, home, location, discover } = yield* setup
      const roots = [
        path.join(home, ".config", "toolgate", "skills"),
        path.join(home, ".claude", "skills"),
        path.join(location, ".claude", "skills"),
        path.join(location, ".agents", "skills"),
        path.join(location, ".toolgate", "skills"),
        path.join(root, "configured"),
      ]
      // Skill s<i> lives in roots i and i+1: the copy in root i+1 must win, for every neighbour pair.
      for (const [index, folder] of roots.entries()) {
        if (index > 0) yield* skill(path.join(folder, `s${index - 1}`), `description: root ${index}\n`)
        if (index < roots.length - 1) yield* skill(path.join(folder, `s${index}`), `description: root ${index}\n`)
      }
      const found = yield* discover([path.join(root, "configured")])
      expect(summary(found)).toEqual(["s0=root 1", "s1=root 2", "s2=root 3", "s3=root 4", "s4=root 5"])
      expect(found.problems).toEqual([])
      expect(SkillDiscovery.roots({ location, environment: { env: {}, home }, configured: [] }).map((entry) => entry.folder)).toEqual(roots.slice(0, 5))
    }))

  it.live("reads a configured ~ or ~/… entry in the home directory", () =>
    Effect.gen(function* () {
      const { home, location, discover } = yield* setup
      yield* skill(path.join(home, "team", "deploy"), "description: from home\n")
      expect(summary(yield* discover(["~/team"]))).toEqual(["deploy=from home"])
      expect(SkillDiscovery.roots({ location, environment: { env: {}, home }, configured: ["~", "~/team"].map((entry) => ({ entry, origin: "person" as const })) }).slice(5).map((entry) => entry.folder)).toEqual([home, path.join(home, "team")])
    }))

  it.live("takes the id from the front matter's name, else the folder's name, and the body after the front matter", () =>
    Effect.gen(function* () {
      const { location, discover } = yield* setup
      const skills = path.join(location, ".toolgate", "skills")
      yield* skill(path.join(skills, "folder-a"), "name: pdf-forms\ndescription: >\n  Fills PDF\n  forms.\nlicense: MIT\n", "\n\n# PDF\n\nUse the script.\n\n")
      yield* skill(path.join(skills, "plain"), undefined, "# Plain\nNo front matter.\n")
      const found = yield* discover()
      expect(found.skills.map(({ id, description, body }) => ({ id, description, body }))).toEqual([
        { id: "pdf-forms", description: "Fills PDF forms.", body: "# PDF\n\nUse the script." },
        { id: "plain", description: "", body: "# Plain\nNo front matter." },
      ])
      expect(found.skills[0]?.directory).toBe(path.join(location, ".toolgate", "skills", "folder-a"))
    }))

  it.live("skips a skill with broken front matter, naming the file, line and column, and keeps the others", () =>
    Effect.gen(function* () {
      const { location, discover } = yield* setup
      const skills = path.join(location, ".claude", "skills")
      yield* skill(path.join(skills, "good"), "name: good\ndescription: Works\n")
      yield* skill(path.join(skills, "colon"), "name: colon\ndescription: Fill: forms\n")
      yield* skill(path.join(skills, "open"), undefined, "---\nname: open\n")
      yield* skill(path.join(skills, "list"), "name: [1, 2]\n")
      const file = (name: string) => path.join(skills, name, SkillDiscovery.SKILL_FILE)
      const found = yield* discover()
      expect(summary(found)).toEqual(["good=Works"])
      expect(found.problems).toEqual([
        { folder: "colon", message: SkillDiscovery.Messages.at(file("colon"), 3, 14, "Nested mappings are not allowed in compact mappings") },
        { folder: "list", message: SkillDiscovery.Messages.at(file("list"), 2, 7, SkillFrontMatter.Messages.notString("name")) },
        { folder: "open", message: SkillDiscovery.Messages.at(file("open"), 1, 1, SkillFrontMatter.Messages.unclosed) },
      ])
      expect(found.problems[0]?.message).toBe(`Cannot load skill ${file("colon")} (line 3, column 14): Nested mappings are not allowed in compact mappings`)
    }))

  it.live("refuses ids that would be wildcards or spaces in a permission rule", () =>
    Effect.gen(function* () {
      const { location, discover } = yield* setup
      const skills = path.join(location, ".agents", "skills")
      yield* skill(path.join(skills, "star"), "name: '*'\n")
      yield* skill(path.join(skills, "My Skill"), undefined)
      const found = yield* discover()
      expect(found.skills).toEqual([])
      expect(found.problems.map((problem) => problem.message)).toEqual([
        SkillDiscovery.Messages.file(path.join(skills, "My Skill", "SKILL.md"), SkillDiscovery.Messages.invalidId("My Skill")),
        SkillDiscovery.Messages.file(path.join(skills, "star", "SKILL.md"), SkillDiscovery.Messages.invalidId("*")),
      ])
    }))

  it.live("ignores hidden folders, folders without SKILL.md and missing standard roots", () =>
    Effect.gen(function* () {
      const { location, discover } = yield* setup
      const skills = path.join(location, ".toolgate", "skills")
      yield* skill(path.join(skills, ".hidden"), "name: hidden\n")
      yield* promise(() => mkdir(path.join(skills, "empty"), { recursive: true }))
      yield* promise(() => writeFile(path.join(skills, "stray.md"), "not a skill"))
      expect(yield* discover()).toEqual({ skills: [], problems: [] })
    }))

  it.live("follows a linked skill folder, but never a SKILL.md that links outside its folder", () =>
    Effect.gen(function* () {
      const { root, location, discover } = yield* setup
      const skills = path.join(location, ".claude", "skills")
      yield* skill(path.join(root, "shared", "linked"), "description: Shared\n")
      yield* promise(() => mkdir(path.join(skills, "leak"), { recursive: true }))
      yield* promise(() => writeFile(path.join(root, "secret.txt"), "password=hunter2\n"))
      yield* promise(() => symlink(path.join(root, "shared", "linked"), path.join(skills, "linked")))
      yield* promise(() => symlink(path.join(root, "secret.txt"), path.join(skills, "leak", "SKILL.md")))
      const found = yield* discover()
      expect(summary(found)).toEqual(["linked=Shared"])
      expect(found.skills[0]?.directory).toBe(path.join(root, "shared", "linked"))
      expect(found.problems).toEqual([{ folder: "leak", message: SkillDiscovery.Messages.file(path.join(skills, "leak", "SKILL.md"), SkillDiscovery.Messages.outside) }])
    }))

  it.live("takes a configured path as a folder of skills or as one skill, and reports one that is missing", () =>
    Effect.gen(function* () {
      const { root, location, discover } = yield* setup
      yield* skill(path.join(root, "team", "review"), "description: Team review\n")
      yield* skill(path.join(root, "single"), "name: single\ndescription: One skill\n")
      yield* skill(path.join(location, "local-skills", "relative"), "description: Relative to the Location\n")
      const missing = path.join(root, "nowhere")
      const found = yield* discover([path.join(root, "team"), path.join(root, "single"), missing, "local-skills"])
      expect(summary(found)).toEqual(["relative=Relative to the Location", "review=Team review", "single=One skill"])
      expect(found.problems).toEqual([{ folder: "nowhere", message: SkillDiscovery.Messages.missingRoot(missing) }])
    }))

  it.live("reads the global skills from the global config folder, honouring TOOLGATE_CONFIG_DIR", () =>
    Effect.gen(function* () {
      const { root, discover } = yield* setup
      yield* skill(path.join(root, "config-dir", "skills", "global"), "description: Global\n")
      expect(summary(yield* discover([], { TOOLGATE_CONFIG_DIR: path.join(root, "config-dir") }))).toEqual(["global=Global"])
    }))
})

describe("SkillCatalog", () => {
  it.live("resolves a (trusted) config file's relative skills paths against that file's folder", () =>
    Effect.gen(function* () {
      const { root, home, location } = yield* setup
      yield* promise(() => mkdir(path.join(location, ".toolgate"), { recursive: true }))
      yield* promise(() => writeFile(path.join(location, ".toolgate", "toolgate.json"), '{ "skills": ["./team-skills"] }'))
      yield* skill(path.join(location, ".toolgate", "team-skills", "deploy"), "description: Deploys\n")
      yield* skill(path.join(location, "team-skills", "decoy"), "description: Not configured\n")
      const environment = { env: {}, home }
      const project = Project.layer.pipe(Layer.provideMerge(Layer.mergeAll(Location.layer(location), Database.layer(path.join(root, "toolgate.db")))))
      yield* Effect.provide(Effect.flatMap(Project.Service, (trusting) => trusting.trust), project)
      const layer = SkillCatalog.layer({ environment }).pipe(Layer.provide(Config.layer({ location, environment }).pipe(Layer.provideMerge(project))))
      const found = yield* Effect.provide(Effect.map(SkillCatalog.Service, (catalog) => catalog), layer)
      expect(summary(found)).toEqual(["deploy=Deploys"])
    }))
})
