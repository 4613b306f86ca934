/**
 * `skill`: loads one of the Location's skills (08) into the conversation. The description is
 * made per Location from `SkillCatalog`: it lists every skill (`- <id>: <description>`) and every
 * skill that could not be loaded, so the model can tell the person what is wrong. A call names a
 * skill; an unknown name fails before any permission is asked (it would show nothing). A known one
 * from a project place whose real folder is outside the Location first asks `external_directory`
 * (as FileAccess does for any outside path), then every skill asks `skill [id]` (saving `[id]`),
 * then returns its instructions, its base directory and up to MAX_SKILL_FILES of its other
 * files, listed when called so that the list is current.
 */
export * as SkillTool from "./skill.js"

import { Effect, Schema } from "effect"
import { Permission } from "../../permission/permission.js"
import { Tool } from "../tool.js"
import { FileAccess } from "./file-access.js"
import { SkillCatalog } from "./skill/catalog.js"
import type { SkillDiscovery } from "./skill/discovery.js"
import { SkillFiles } from "./skill/files.js"

export const name = "skill"
export const MAX_SKILL_FILES = 10

export const DESCRIPTION = [
  "Loads a skill: instructions, and sometimes scripts or reference files, for a specific kind of task, written by the person or their team.",
  "When the task matches one of the skills below, call this tool with the skill's name before starting, then follow the instructions it returns.",
].join("\n")

export const Messages = {
  available: "Available skills:",
  none: "No skills are available.",
  skill: (id: string, description: string) => (description === "" ? `- ${id}` : `- ${id}: ${description}`),
  problems: "Skills that could not be loaded (tell the person if one of them is needed):",
  problem: (message: string) => `- ${message}`,
  unknown: (input: string, ids: ReadonlyArray<string>) => `Unknown skill: ${input}. Available skills: ${ids.length === 0 ? "none" : ids.join(", ")}`,
  header: (id: string) => `# Skill: ${id}`,
  base: (directory: string) => `Base directory for this skill: ${directory}\nRelative paths in this skill are relative to this base directory.`,
  file: (file: string) => `<file>${file}</file>`,
} as const

export const Input = Schema.Struct({
  name: Schema.String.annotate({ description: "The name of the skill, as listed in this tool's description" }),
}).annotate({ identifier: "SkillTool.Input" })
export type Input = typeof Input.Type

/** The loaded skill: its id, base directory, markdown instructions and other files (absolute). */
export const Output = Schema.Struct({
  name: Schema.String,
  directory: Schema.String,
  content: Schema.String,
  files: Schema.Array(Schema.String),
}).annotate({ identifier: "SkillTool.Output" })
export type Output = typeof Output.Type

/** The tool's description for the skills (and problems) of one Location. */
export const describe = (found: SkillDiscovery.Found): string =>
  [
    DESCRIPTION,
    "",
    found.skills.length === 0 ? Messages.none : [Messages.available, ...found.skills.map((skill) => Messages.skill(skill.id, skill.description))].join("\n"),
    ...(found.problems.length === 0 ? [] : ["", Messages.problems, ...found.problems.map((problem) => Messages.problem(problem.message))]),
  ].join("\n")

/** What the model reads: the skill wrapped in `<skill_content>`, as 08 shows it. */
export const render = (output: Output): string =>
  [
    `<skill_content name="${output.name}">`,
    [Messages.header(output.name), output.content, Messages.base(output.directory)].filter((part) => part !== "").join("\n\n"),
    "<skill_files>",
    ...output.files.map(Messages.file),
    "</skill_files>",
    "</skill_content>",
  ].join("\n")

/** Whether the Location has anything to offer: a skill, or a problem the person should hear about. */
export const offered = Effect.map(SkillCatalog.Service, (found) => found.skills.length > 0 || found.problems.length > 0)

export const make = Effect.gen(function* () {
  const permission = yield* Permission.Service
  const access = yield* FileAccess.Service
  const found = yield* SkillCatalog.Service
  const skills = new Map(found.skills.map((skill) => [skill.id, skill]))
  /** The skill, and its requests: `external_directory` for a project skill outside, then `skill [id]`. */
  const prepare = Effect.fnUntraced(function* (input: Input) {
    const skill = skills.get(input.name)
    if (skill === undefined) {
      // A skill the person wrote but broke: say why, rather than that it does not exist.
      const problem = found.problems.find((candidate) => candidate.folder === input.name)
      return yield* new Tool.Failure({ message: problem?.message ?? Messages.unknown(input.name, [...skills.keys()]) })
    }
    // The person's own places are theirs to fill; a project's may point anywhere (a link, a path).
    const external = skill.origin === "project" ? FileAccess.externalRequests([yield* access.resolve(skill.directory, "directory")], name) : []
    const requests: ReadonlyArray<Tool.PermissionRequest> = [...external, { action: name, resources: [skill.id], save: [skill.id] }]
    return { skill, requests }
  })
  return Tool.make({
    description: describe(found),
    input: Input,
    output: Output,
    requests: (input) => Effect.map(prepare(input), (prepared) => prepared.requests),
    execute: (input, context) =>
      Effect.gen(function* () {
        const { skill, requests } = yield* prepare(input)
        yield* Tool.askAll(permission, context, requests)
        const files = yield* Effect.promise(() => SkillFiles.list(skill.directory, MAX_SKILL_FILES))
        return { name: skill.id, directory: skill.directory, content: skill.body, files }
      }),
    toModelOutput: ({ output }) => [{ type: "text", text: render(output) }],
  })
})
