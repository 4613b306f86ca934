/**
 * Finds skills: folders holding a `SKILL.md`, in the documented roots, in order, the later one
 * winning on the same id (08). A root holds skill folders (hidden ones skipped, in name order); a
 * configured path may also be a skill folder itself. A skill that cannot be loaded (broken front
 * matter, an invalid name, a SKILL.md linking outside its folder or too large) is skipped and
 * reported as a `Problem`, so the other skills keep working and the person can see what is wrong;
 * a missing standard root is simply absent, a missing configured path is a problem.
 * Every skill remembers whose place it came from: the person's (their global folders, their
 * global or explicit config) or the project's (the Location's folders, a trusted project config).
 * A project skill whose real folder is outside the Location is loaded only after an
 * `external_directory` ask (the skill tool's), as any other outside file.
 */
export * as SkillDiscovery from "./discovery.js"

import type { Dirent } from "node:fs"
import { readdir, readFile, realpath, stat } from "node:fs/promises"
import path from "node:path"
import { Directories } from "../../../directories.js"
import { SkillFrontMatter } from "./front-matter.js"

export const SKILL_FILE = "SKILL.md"
/** A SKILL.md larger than this is not loaded (it would be read at every start). */
export const MAX_SKILL_BYTES = 1024 * 1024
/** What a skill id may be: it is a permission resource, so no wildcard characters or spaces. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

export const Messages = {
  at: (file: string, line: number, column: number, detail: string) => `Cannot load skill ${file} (line ${line}, column ${column}): ${detail}`,
  file: (file: string, detail: string) => `Cannot load skill ${file}: ${detail}`,
  invalidId: (id: string) =>
    `"${id}" is not a valid skill name: use letters, digits, ".", "_" and "-", at most 64 characters, starting with a letter or digit`,
  outside: "it is a link to a file outside its skill folder",
  notFile: "it is not a regular file",
  tooLarge: `it is larger than ${MAX_SKILL_BYTES} bytes`,
  missingRoot: (folder: string) => `Cannot load skills from ${folder}: no such folder`,
} as const

/** Whose place a skill was found in: the person's own, or the project's (see the docblock). */
export type Origin = "person" | "project"

export interface Skill {
  readonly id: string
  /** The description on one line; empty when the front matter has none. */
  readonly description: string
  /** The skill folder's real path. */
  readonly directory: string
  readonly file: string
  /** The markdown after the front matter, without surrounding blank lines. */
  readonly body: string
  readonly origin: Origin
}

export interface Problem {
  /** The folder's name: what the model would likely ask for. */
  readonly folder: string
  readonly message: string
}

export interface Found {
  /** Sorted by id. */
  readonly skills: ReadonlyArray<Skill>
  readonly problems: ReadonlyArray<Problem>
}

/** One config `skills` entry (absolute, or `~/…`; a relative one resolves against the Location). */
export interface Configured {
  readonly entry: string
  /** `project` for an entry of the project's config file, else `person`. */
  readonly origin: Origin
}

export interface Options {
  /** The Location's directory (its real path). */
  readonly location: string
  readonly environment: Directories.Environment
  /** Config `skills` entries in file order: only those of files that count (a trusted project's). */
  readonly configured: ReadonlyArray<Configured>
}

interface Root {
  readonly folder: string
  /** Named in a config file: may be a skill folder itself, and must exist. */
  readonly configured: boolean
  readonly origin: Origin
}

/** `~` and `~/…` in a configured entry mean the home directory. */
const expandHome = (entry: string, home: string) => (entry === "~" ? home : entry.startsWith("~/") ? path.join(home, entry.slice(2)) : entry)

/** The roots in discovery order: the person's global ones, then the Location's, then config's. */
export const roots = (options: Options): ReadonlyArray<Root> => [
  ...[path.join(Directories.config(options.environment), "skills"), path.join(options.environment.home, ".claude", "skills")].map((folder) => ({
    folder,
    configured: false,
    origin: "person" as const,
  })),
  ...[
    path.join(options.location, ".claude", "skills"),
    path.join(options.location, ".agents", "skills"),
    path.join(options.location, Directories.PROJECT_CONFIG_DIR, "skills"),
  ].map((folder) => ({ folder, configured: false, origin: "project" as const })),
  ...options.configured.map(({ entry, origin }) => ({ folder: path.resolve(options.location, expandHome(entry, options.environment.home)), configured: true, origin })),
]

const code = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error)

/** Whether `child` (a real path) is inside `parent` (a real path). */
export const inside = (parent: string, child: string) => child.startsWith(parent.endsWith(path.sep) ? parent : `${parent}${path.sep}`)

/** No SKILL.md there, or the entry is not a folder at all: not a skill, and nothing to report. */
const NOT_A_SKILL = new Set(["ENOENT", "ENOTDIR"])

const exists = (file: string) => stat(file).then(() => true, () => false)

type Loaded = { readonly skill: Skill } | { readonly problem: Problem } | undefined

/** One folder: its skill, a problem, or undefined when it holds no SKILL.md. */
export const load = async (folder: string, origin: Origin): Promise<Loaded> => {
  const name = path.basename(folder)
  const file = path.join(folder, SKILL_FILE)
  const fail = (message: string) => ({ problem: { folder: name, message } })
  try {
    const directory = await realpath(folder)
    const real = await realpath(file).catch((error: unknown) => (NOT_A_SKILL.has(code(error)) ? undefined : Promise.reject(error)))
    if (real === undefined) return undefined
    // A SKILL.md is shown to the model without a read permission: it must not be a way to show any other file.
    if (!inside(directory, real)) return fail(Messages.file(file, Messages.outside))
    const info = await stat(real)
    if (!info.isFile()) return fail(Messages.file(file, Messages.notFile))
    if (info.size > MAX_SKILL_BYTES) return fail(Messages.file(file, Messages.tooLarge))
    const parsed = SkillFrontMatter.parse(await readFile(real, "utf8"))
    if (SkillFrontMatter.isProblem(parsed)) return fail(Messages.at(file, parsed.line, parsed.column, parsed.detail))
    const id = parsed.name ?? name
    if (!ID_PATTERN.test(id)) return fail(Messages.file(file, Messages.invalidId(id)))
    const description = (parsed.description ?? "").replace(/\s+/g, " ").trim()
    return { skill: { id, description, directory, file, body: parsed.body.replace(/^\s*\n/, "").trimEnd(), origin } }
  } catch (error) {
    return fail(Messages.file(file, code(error)))
  }
}

/** The skill folders of a root in name order; none when it cannot be listed. */
const folders = async (root: string): Promise<ReadonlyArray<string>> => {
  const entries = await readdir(root, { withFileTypes: true }).catch((): Dirent[] => [])
  const candidates = entries.filter((entry) => !entry.name.startsWith(".") && (entry.isDirectory() || entry.isSymbolicLink()))
  return candidates.map((entry) => entry.name).sort().map((name) => path.join(root, name))
}

const loadRoot = async (root: Root): Promise<ReadonlyArray<NonNullable<Loaded>>> => {
  if (root.configured && !(await exists(root.folder))) return [{ problem: { folder: path.basename(root.folder), message: Messages.missingRoot(root.folder) } }]
  const single = root.configured && (await exists(path.join(root.folder, SKILL_FILE)))
  const loaded = await Promise.all((single ? [root.folder] : await folders(root.folder)).map((folder) => load(folder, root.origin)))
  return loaded.filter((entry) => entry !== undefined)
}

const byId = (a: Skill, b: Skill) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/**
 * Every skill of the roots, the later winning on the same id, and every problem met on the way.
 * Never fails: a folder that cannot be read is a problem or absent, not a reason to lose the rest.
 */
export const discover = async (options: Options): Promise<Found> => {
  const loaded = (await Promise.all(roots(options).map(loadRoot))).flat()
  const skills = new Map(loaded.flatMap((entry) => ("skill" in entry ? [[entry.skill.id, entry.skill] as const] : [])))
  return { skills: [...skills.values()].sort(byId), problems: loaded.flatMap((entry) => ("problem" in entry ? [entry.problem] : [])) }
}
