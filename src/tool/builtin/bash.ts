/**
 * The `bash` tool (07). In order: resolve the workdir; parse the command into one resource per
 * simple command (BashParse); resolve every directory it moves into and every file it writes,
 * against the effective directory at that point; ask `external_directory` once for the workdir
 * and every external or unknowable target; ask `edit` on the files it writes that are protected
 * paths (ProtectedPath: only a rule naming them allows them); ask `bash` with every resource
 * (opaque input: one resource that only an exact rule allows); check the workdir again; record
 * the tree before the message's first change (best effort); run in a process group (BashRun).
 * Absolute paths the command names outside the Location only warn. A write target in saved tool
 * output is refused. Output past 1 MiB spools to the session's saved-output folder. Not
 * sandboxed: permission is the only gate. `requests` is steps 1–5 without asking:
 * `permission eval bash` judges a line through it.
 */
export * as BashTool from "./bash.js"

import { lstat } from "node:fs/promises"
import path from "node:path"
import { Effect, Schema } from "effect"
import { Config } from "../../config.js"
import { LocationMutation } from "../../location/mutation.js"
import { OwnPaths } from "../../location/own-paths.js"
import { ProcessPath } from "../../location/process-path.js"
import { PermissionEvaluate } from "../../permission/evaluate.js"
import { Permission } from "../../permission/permission.js"
import type { PermissionShown } from "../../permission/shown.js"
import { SandboxBwrap } from "../../sandbox/bwrap.js"
import { SandboxHidden } from "../../sandbox/hidden.js"
import { SandboxMode } from "../../sandbox/mode.js"
import { History } from "../../snapshot/history.js"
import { Id } from "../../storage/id.js"
import { Sql } from "../../storage/sql.js"
import { ToolCallMarker } from "../../tool-call-marker.js"
import { ToolOutputStore } from "../../tool-output-store.js"
import { Tool } from "../tool.js"
import type { BashCommand } from "./bash/command.js"
import { BashLanding } from "./bash/landing.js"
import { BashParse } from "./bash/parse.js"
import { BashPaths } from "./bash/paths.js"
import { BashRun } from "./bash/run.js"
import { BashShell } from "./bash/shell.js"
import { FileAccess } from "./file-access.js"
import { Tracing } from "../../tracing.js"
import { ServerToken } from "../../server/token.js"
import { Directories } from "../../directories.js"

export const name = "bash"

export const DEFAULT_TIMEOUT_MS = 120_000
export const MAX_TIMEOUT_MS = 600_000
/** The resource of an external_directory ask for a target that cannot be known before the command runs. */
export const UNKNOWN_DIRECTORY = "*"
/**
 * Variables removed from every command's environment: an inherited CDPATH would move a `cd` the
 * parser resolved; BASH_ENV / ENV run a file no one approved; SHELLOPTS, BASHOPTS and PS4 can
 * turn on tracing that evaluates code; exported functions (`BASH_FUNC_<name>%%`) replace a
 * command the person approved by name; IFS and GLOBIGNORE change how words split and expand.
 */
export const UNSET_VARIABLES = ["CDPATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "IFS", "GLOBIGNORE"] as const
export const UNSET_PREFIXES = ["BASH_FUNC_"] as const
/**
 * Credentials no command is given: `toolgate serve`'s token answers asks over HTTP, so a command
 * that read it (from a shell where the person exported it for a server) could approve its own;
 * the team database's URL leads to where approvals are stored.
 */
export const WITHHELD_VARIABLES = [ServerToken.ENV, Directories.DATABASE_URL_ENV] as const
/** The most places a command may be in after its cd's before its targets count as unknowable. */
export const MAX_PLACES = 16

const kept = (name: string) =>
  !(UNSET_VARIABLES as ReadonlyArray<string>).includes(name) && !(WITHHELD_VARIABLES as ReadonlyArray<string>).includes(name) && !UNSET_PREFIXES.some((prefix) => name.startsWith(prefix))

/** Paths that are not files: writing to them never asks (the differential fuzzer judges targets by it too). */
export const NOT_FILES = /^\/dev\/(null|stdout|stderr|stdin|tty|fd\/\d+)$/

/** The sentence the design requires word for word (07), in the description and the README. */
export const NOT_SANDBOXED = "Bash is not sandboxed: the spawned shell runs with the host user's filesystem, process, and network authority."

/** In place of `NOT_SANDBOXED` when `bash.sandbox` is on (sandbox/mode.ts). */
export const sandboxed = (mode: Exclude<SandboxMode.Mode, "off">, network: boolean) =>
  `Bash runs in an OS sandbox (${mode}): it can write ${mode === "workspace-write" ? "only inside the working directory (its .git read-only) and a private /tmp" : "only to a private /tmp"}, cannot read ~/.ssh, ~/.aws, ~/.gnupg or toolgate's own files, and has ${network ? "the network" : "no network"}; its background jobs end with it.`

export const describe = (setting: SandboxMode.Setting = SandboxMode.OFF) =>
  DESCRIPTION.replace(NOT_SANDBOXED, setting.sandbox === "off" ? NOT_SANDBOXED : sandboxed(setting.sandbox, setting.network))

export const DESCRIPTION = `Runs a shell command in the working directory and returns its combined stdout and stderr.

- ${NOT_SANDBOXED} Permission rules are the only gate, and every command inside the line (after &&, ;, |, in $( ), in sh -c "…") is checked on its own.
- workdir: the directory to run in (default: the working directory); timeout: milliseconds, default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}.
- Each call starts a fresh shell: use workdir rather than cd to change directory.
- Output over 1 MiB is saved to a file and the end of it is shown; prefer commands with short output.
- On timeout or when stopped, the whole process group is killed. A background job (cmd &) that must outlive the call needs its output redirected (cmd > log 2>&1 &).
- A session revert restores files in the working directory only: it cannot undo network requests, database writes, files outside the working directory or processes a command started.
- description: a few words saying what the command does, for the person approving it.`

export const Messages = {
  timeoutTooLarge: `Timeout must be at most ${MAX_TIMEOUT_MS} ms`,
  empty: "Command must not be empty",
  workdirMissing: (workdir: string) => `Working directory does not exist: ${workdir}`,
  workdirNotDirectory: (workdir: string) => `Working directory is not a directory: ${workdir}`,
  warnings: (paths: ReadonlyArray<string>) => ["Warnings:", ...paths.map((found) => `- ${found} is outside the working directory`)].join("\n"),
  /** What an opaque edit of fed folders is for: what lands there is named by the command's input. */
  fedInto: (folders: ReadonlyArray<string>) => `writes files its input names into ${folders.join(", ")}: which ones cannot be known before it runs`,
  /** What the opaque edit of `*` is for: a write the gate cannot place. */
  unplaced:
    "writes where it cannot be known before it runs (through a link made in the same line, a variable, or a cd that cannot be followed): it may write a protected file, such as a git hook",
} as const

/** The purpose shown for the fed folders' ask: the folders by name, then what cannot be placed. */
const feedPurpose = (feeds: ReadonlyArray<string>): string => {
  const named = feeds.filter((folder) => folder !== UNKNOWN_DIRECTORY)
  return [...(named.length > 0 ? [Messages.fedInto(named)] : []), ...(named.length < feeds.length ? [Messages.unplaced] : [])].join("; ")
}

export const Input = Schema.Struct({
  command: Schema.String.annotate({ description: "The command line to run" }),
  workdir: Schema.optional(Schema.String.annotate({ description: "The directory to run in, relative to the working directory or absolute (default: the working directory)" })),
  timeout: Schema.optional(Schema.Int.check(Schema.isGreaterThan(0)).annotate({ description: `Milliseconds before the command is killed (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS})` })),
  description: Schema.optional(Schema.String.annotate({ description: "A few words saying what the command does" })),
}).annotate({ identifier: "BashTool.Input" })
export type Input = typeof Input.Type

export const Output = Schema.Struct({
  ...BashRun.Output.fields,
  /** What the model reads: the output (its last 1 MiB when truncated), the notice, any warnings. */
  output: Schema.String,
}).annotate({ identifier: "BashTool.Output" })
export type Output = typeof Output.Type

type Target = LocationMutation.Target

/** One external_directory entry: a folder pattern, and what "always" saves (nothing for an unknown target). */
interface External {
  readonly resource: string
  readonly save: string | undefined
}

const fail = (message: string) => Effect.fail(new Tool.Failure({ message }))

/** The places, or undefined when there are too many to ask about one by one. */
const within = (places: ReadonlyArray<string>): ReadonlyArray<string> | undefined => {
  const unique = distinct(places)
  return unique.length > MAX_PLACES ? undefined : unique
}

const distinct = <A>(values: ReadonlyArray<A>): ReadonlyArray<A> => [...new Set(values)]

/** Every place `relative` leads from each of `bases`; undefined when one cannot be known or there are too many. */
const spread = (bases: ReadonlyArray<string>, relative: string): ReadonlyArray<string> | undefined => {
  const each = bases.map((base) => BashPaths.both(base, relative))
  return each.every((places) => places !== undefined) ? within(each.flat()) : undefined
}

/** What a target's real path needs: nothing inside the Location, its folder outside, `*` when unknowable. */
const externalOf = (target: Target): External | undefined =>
  target.type === "external" ? { resource: target.externalDirectory.resource, save: target.externalDirectory.save } : undefined

export interface Options {
  /** The environment of every command, and where the shell is chosen from (default: the process's). */
  readonly env?: BashShell.Env
}

export const makeWith = (options: Options = {}) => Effect.gen(function* () {
  const access = yield* FileAccess.Service
  const permission = yield* Permission.Service
  const history = yield* History.Service
  const store = yield* ToolOutputStore.Service
  const config = yield* Config.Service
  const storage = yield* Sql.Service
  const sandbox = config.bash
  /** toolgate's own folders and files, which no sandboxed command may read: the data folder, the config folder, the config files. */
  const own = OwnPaths.list({ data: path.dirname(store.directory), storage, sources: config.sources })
  /** Their real forms, for the folders above them that a command removes or writes into. */
  const ownReal = OwnPaths.realForms({ data: path.dirname(store.directory), storage, sources: config.sources })

  /**
   * Resolves a path the command names, or undefined when it cannot be resolved statically: also
   * when its walk goes through a process's own folder (`/proc/self/cwd/…`, a link to it), which
   * is the shell's when the shell writes and toolgate's here (ProcessPath).
   */
  const resolveAt = (absolute: string, kind: LocationMutation.Kind): Effect.Effect<Target | undefined> =>
    ProcessPath.is(absolute)
      ? Effect.succeed(undefined)
      : access.resolve(absolute, kind).pipe(
          Effect.map((target): Target | undefined => target),
          Effect.catch(() => Effect.succeed(undefined)),
        )

  /**
   * The external_directory entries of every cd/pushd and written target, from each place it may
   * be in; the files written, as resolved (links followed), inside the Location and outside; and
   * the written files with more than one name (a hard link may be another name of a protected
   * file). A copying program's destination that is a folder writes what lands in it too (BashLanding).
   */
  const externalTargets = Effect.fnUntraced(function* (workdir: string, targets: ReadonlyArray<BashCommand.Target>) {
    const found: External[] = []
    const absolutes: string[] = []
    const written: string[] = []
    const linked: string[] = []
    /** The static sources of a copying program (`mv`'s are removed): the snapshot records them as they are. */
    const sourced: string[] = []
    /** Written or removed folders that hold toolgate's own files (`rm -rf ~/.config`): asked as opaque edits. */
    const holding: string[] = []
    /** Folders a program writes what its input names into (`tar x`, `patch`): asked as opaque edits; UNKNOWN_DIRECTORY when unknown. */
    const fed: string[] = []
    /** Whether a write lands where it cannot be known: then a protected path may be what it writes. */
    const blind = { writes: false }
    const unknown = (writing: boolean) => {
      found.push({ resource: UNKNOWN_DIRECTORY, save: undefined })
      if (writing) blind.writes = true
    }
    /** Refused inside saved tool output and toolgate's own files; a folder above the latter is noted. */
    const guard = Effect.fnUntraced(function* (resolved: Target) {
      yield* access.writable(resolved)
      if (OwnPaths.above(ownReal, resolved.real)) holding.push(resolved.resource)
    })
    /** A name the command takes away (`mv`'s source, the entry itself): judged as written where it is, like `rm`'s operand. */
    const took = Effect.fnUntraced(function* (resolved: Target) {
      yield* guard(resolved)
      const external = externalOf(resolved)
      if (external !== undefined) found.push(external)
      // Outside too: an approval of the folder (`external_directory /home/me/*`) is not one of `/home/me/.bashrc`.
      written.push(resolved.resource)
    })
    /** A written file: refused in saved tool output (before anything is asked, like the file tools'), else judged where it leads. */
    const wrote = Effect.fnUntraced(function* (resolved: Target) {
      yield* took(resolved)
      if (FileAccess.hasLinks(resolved.real)) linked.push(resolved.resource)
    })
    for (const target of targets) {
      if (target.path !== undefined && target.kind === "file" && NOT_FILES.test(target.path)) continue
      const places = target.cwd.reduce<ReadonlyArray<string> | undefined>((at, cd) => (at === undefined || cd === undefined ? undefined : spread(at, cd)), [workdir])
      // A line break in a name is part of it for the shell, but path resolution trims it: unknowable here.
      // A folder the command only enters writes nothing by that; every other target is written.
      const writing = !(target.kind === "directory" && target.entered === true)
      if (places === undefined || target.path === undefined || /[\r\n]/.test(target.path)) {
        unknown(writing)
        if (target.fed === true) fed.push(UNKNOWN_DIRECTORY)
        continue
      }
      const seen = new Set<string>()
      for (const base of places) {
        const leads = BashPaths.both(base, target.path)
        if (leads === undefined) unknown(writing)
        if (leads === undefined && target.fed === true) fed.push(UNKNOWN_DIRECTORY)
        for (const absolute of leads ?? []) {
          if (seen.has(absolute)) continue
          seen.add(absolute)
          absolutes.push(absolute)
          const resolved = yield* resolveAt(absolute, target.kind === "directory" ? "directory" : "file")
          if (target.fed === true) fed.push(resolved === undefined ? UNKNOWN_DIRECTORY : resolved.resource)
          if (resolved === undefined) unknown(writing)
          else if (target.kind === "directory" && target.entered === true) {
            const external = externalOf(resolved)
            if (external !== undefined) found.push(external)
          } else yield* wrote(resolved)
          if (target.sources === undefined || resolved === undefined) continue
          for (const source of target.sources) if (source.path !== undefined) sourced.push(path.resolve(base, source.path))
          // What `mv` takes away is written too: `mv toolgate.json notes.txt` took the project's denies, `mv ~/.local/share x` toolgate's data.
          for (const source of target.sources) {
            if (source.moved !== true) continue
            const spelled = source.path !== undefined ? [source.path] : source.glob === undefined ? undefined : BashLanding.expand(base, source.glob, access.location)
            if (spelled === undefined) unknown(true)
            for (const each of spelled ?? []) {
              const froms = BashPaths.both(base, each)
              if (froms === undefined) unknown(true)
              for (const from of froms ?? []) {
                const moved = yield* resolveAt(from, "entry")
                if (moved === undefined) unknown(true)
                else yield* took(moved)
              }
            }
          }
          const landing = BashLanding.paths(absolute, base, target.sources, { caseInsensitive: access.location.caseInsensitive })
          if (landing === undefined) unknown(true)
          for (const at of landing ?? []) {
            const lands = yield* resolveAt(at, "file")
            if (lands === undefined) unknown(true)
            else yield* wrote(lands)
          }
        }
      }
    }
    return { found, absolutes, written, linked, sourced, holding, fed, blind: blind.writes }
  })

  /** Absolute paths named by the command outside the Location and not already asked about. */
  const warningsFor = Effect.fnUntraced(function* (paths: ReadonlyArray<string>, asked: ReadonlyArray<string>) {
    const outside: string[] = []
    for (const named of distinct(paths)) {
      if (asked.includes(named) || NOT_FILES.test(named)) continue
      if (!LocationMutation.contains(access.location.directory, path.resolve(named), access.location.caseInsensitive)) outside.push(named)
    }
    return outside
  })

  /** What the network ask shows: the command, not the sandbox's "no network" it would lift. */
  const withoutSandbox = ({ sandbox: _, ...shown }: PermissionShown.Shown): PermissionShown.Shown => shown

  /** The workdir just before the spawn: it must still exist and be a directory. */
  const checkWorkdir = (workdir: Target) =>
    Effect.flatMap(
      Effect.promise(() => lstat(workdir.real).then((info) => (info.isDirectory() ? "directory" : "other"), () => "missing" as const)),
      (found) => (found === "directory" ? Effect.void : fail(found === "missing" ? Messages.workdirMissing(workdir.input) : Messages.workdirNotDirectory(workdir.input))),
    )

  /**
   * Steps 1–4 without asking: the checks, the workdir, the parse, and the requests in the order
   * they are asked (`external_directory` once for the workdir and every external or unknowable
   * target, then `bash` with every command). `requests` is this; `execute` asks what it lists.
   */
  const plan = Effect.fnUntraced(function* (input: Input, network: boolean = sandbox.network) {
    const timeout = input.timeout ?? DEFAULT_TIMEOUT_MS
    if (timeout > MAX_TIMEOUT_MS) return yield* fail(Messages.timeoutTooLarge)
    if (input.command.trim() === "") return yield* fail(Messages.empty)
    // 1. The workdir, as a directory.
    const workdir = yield* access.resolve(input.workdir ?? ".", "directory")
    // 2. The command's resources.
    const parser = yield* Effect.promise(BashParse.load)
    const env = Object.fromEntries(Object.entries(options.env ?? process.env).filter(([key]) => kept(key)))
    const shell = yield* BashShell.resolve(env)
    // Without bash to run it, no command means what the parser read: each is opaque.
    const read = parser.parse(input.command, { home: access.home })
    const parsed = BashShell.readsBash(shell) ? read : { ...read, opaque: true, resources: [{ text: input.command, save: undefined }] }
    // 3. Where it moves and what it writes, asked once with the workdir.
    const { found, absolutes, written, linked, sourced, holding, fed, blind } = yield* externalTargets(workdir.real, parsed.targets)
    const external = [...(externalOf(workdir) === undefined ? [] : [externalOf(workdir) as External]), ...found]
    const saves = external.flatMap((entry) => (entry.save === undefined ? [] : [entry.save]))
    // 4. The protected files it writes, as a file tool writing them would ask (saving exactly them).
    const guarded = distinct(written.filter((resource) => PermissionEvaluate.protectedNames(PermissionEvaluate.PROTECTED_ACTION, resource, permission.context).length > 0))
    // 4b. The files it writes in place that have other names: only a rule or approval naming one allows it.
    const hardLinked = distinct(linked)
    // 4c. The folders it removes or writes into that hold toolgate's own files: likewise.
    // 4d. The folders it writes what its input names into (`tar x`, `patch`, `git apply`): what lands cannot be judged, so only a rule naming the folder allows it; "always" saves nothing.
    // A write the gate cannot place (a link made earlier in the line, a `cd` it cannot follow) may
    // land on a protected path: asked the same way, so `external_directory "*"` allowed by a
    // wildcard never lets it through alone.
    const feeds = distinct(blind ? [...fed, UNKNOWN_DIRECTORY] : fed)
    // One ask per folder: a fed folder that also holds toolgate's own files is asked once, as fed (saving nothing).
    const holders = distinct(holding).filter((resource) => !feeds.includes(resource))
    // 5. Every command; opaque input is allowed only by a rule or approval naming its exact text.
    const resources = parsed.resources.map((resource) => resource.text)
    const save = parsed.opaque
      ? resources.filter((text) => !text.includes("*") && !text.includes("?"))
      : distinct(parsed.resources.flatMap((resource) => (resource.save === undefined ? [] : [resource.save])))
    // In the sandbox every request of the command says so: `when: "sandboxed"` rules apply to them.
    const sandboxed = sandbox.sandbox === "off" ? {} : { sandboxed: true as const }
    // Every request of the call shows what will run and where: approving the first one alone
    // (external_directory, when the rules allow the command) lets the command run.
    const metadata = {
      command: input.command,
      ...(input.description === undefined ? {} : { description: input.description }),
      ...(sandbox.sandbox === "off" ? {} : { sandbox: SandboxMode.Messages.shown(sandbox.sandbox, access.location.directory, network) }),
      workdir: workdir.real,
    } satisfies PermissionShown.Shown
    const requests: ReadonlyArray<Tool.PermissionRequest> = [
      ...(external.length > 0 ? [{ action: FileAccess.EXTERNAL_ACTION, resources: distinct(external.map((entry) => entry.resource)), save: distinct(saves), metadata, ...sandboxed }] : []),
      ...(guarded.length > 0 ? [{ action: PermissionEvaluate.PROTECTED_ACTION, resources: guarded, save: guarded, metadata, ...sandboxed }] : []),
      ...(hardLinked.length > 0 ? [{ action: PermissionEvaluate.PROTECTED_ACTION, resources: hardLinked, save: hardLinked, opaque: true, metadata, ...sandboxed }] : []),
      ...(holders.length > 0 ? [{ action: PermissionEvaluate.PROTECTED_ACTION, resources: holders, save: holders, opaque: true, metadata, ...sandboxed }] : []),
      ...(feeds.length > 0 ? [{ action: PermissionEvaluate.PROTECTED_ACTION, resources: feeds, save: [], opaque: true, metadata: { ...metadata, purpose: feedPurpose(feeds) }, ...sandboxed }] : []),
      { action: name, resources, save, metadata, ...(parsed.opaque ? { opaque: true } : {}), ...sandboxed },
    ]
    // What the snapshot records by name before and after the run: what it writes, and what it copies or moves away.
    const named = [...written, ...sourced]
    return { timeout, workdir, env, shell, parsed, absolutes, named, requests, resources, save, metadata }
  })

  /**
   * Whether a sandboxed command gets the network, and the request that asks for it: on when
   * `bash.network` says so or a `bash_network` rule allows the command; asked when such a rule
   * asks; off (without asking) when no rule names it or one denies it.
   */
  const networkFor = Effect.fnUntraced(function* (sessionID: string, resources: ReadonlyArray<string>, save: ReadonlyArray<string>, metadata: PermissionShown.Shown) {
    if (sandbox.network) return { network: true, requests: [] }
    // Only a rule naming bash_network counts: the network is not given by a `*` allow of every action.
    const decision = yield* permission.decide({ sessionID, action: SandboxMode.NETWORK_ACTION, resources, sandboxed: true, namedBy: SandboxMode.NETWORK_ACTION })
    if (decision.effect === "allow") return { network: true, requests: [] }
    const named = decision.matched.some(({ rule }) => rule.source.kind !== "default" && rule.action.startsWith(SandboxMode.NETWORK_ACTION))
    if (decision.effect === "deny" || !named) return { network: false, requests: [] }
    const request: Tool.PermissionRequest = { action: SandboxMode.NETWORK_ACTION, resources, save, metadata, sandboxed: true, namedBy: SandboxMode.NETWORK_ACTION }
    return { network: true, requests: [request] }
  })

  /** bwrap and its arguments for this command, or a failure naming why the sandbox cannot start. */
  const sandboxFor = Effect.fnUntraced(function* (sessionID: string, cwd: string, network: boolean, env: BashShell.Env) {
    if (sandbox.sandbox === "off") return undefined
    const { binary, filter } = yield* SandboxBwrap.probe(env).pipe(Effect.mapError((error) => new Tool.Failure({ message: error.message })))
    const rules = yield* permission.rulesFor(sessionID)
    const hidden = SandboxHidden.paths({ location: access.location.directory, home: access.home, own, rules: [...rules.configured, ...rules.session, ...rules.policy.filter((rule) => rule.effect === "deny")] })
    return { binary, filter, args: SandboxBwrap.args({ mode: sandbox.sandbox, location: access.location.directory, cwd, home: access.home, hidden, network }) }
  })

  const execute = Tracing.fn("BashTool.execute")(function* (input: Input, context: Tool.Context) {
    const first = yield* plan(input)
    // A sandbox that cannot start fails the call before anyone is asked about it.
    if (sandbox.sandbox !== "off") yield* SandboxBwrap.probe(first.env).pipe(Effect.mapError((error) => new Tool.Failure({ message: error.message })))
    const net = sandbox.sandbox === "off" ? { network: false, requests: [] } : yield* networkFor(context.sessionID, first.resources, first.save, withoutSandbox(first.metadata))
    const planned = net.network === sandbox.network ? first : yield* plan(input, net.network)
    const { workdir, shell, parsed, absolutes, named, timeout } = planned
    yield* Tool.askAll(permission, context, [...net.requests, ...planned.requests])
    // Marked, so that what only a person may run (`toolgate trust`) refuses inside a command.
    const env = { ...planned.env, ...ToolCallMarker.environment(context.toolCallID) }
    // 6. The workdir again, then the run.
    yield* checkWorkdir(workdir)
    // The files it names are recorded as they are, gitignored ones too (`rm .env`): a revert puts them back.
    yield* history.before(context.sessionID, context.assistantMessageID, named, context.toolCallID)
    const boxed = yield* sandboxFor(context.sessionID, workdir.real, net.network, env)
    const result = yield* BashRun.run({
      command: input.command,
      cwd: workdir.real,
      timeout,
      shell,
      env,
      spoolPath: path.join(store.folder(context.sessionID), Id.create("shell")),
      ...(boxed === undefined ? {} : { sandbox: boxed }),
    }).pipe(
      Effect.mapError((error) => new Tool.Failure({ message: error.message })),
    )
    // 7. Warnings for outside paths that were not asked about.
    const outside = yield* warningsFor(parsed.absolutePaths, absolutes)
    const spoolNote = result.spoolError === undefined ? [] : [BashRun.Messages.notSaved(result.spoolError.path, result.spoolError.detail)]
    const text = [BashRun.render(result), ...spoolNote, ...(outside.length === 0 ? [] : [Messages.warnings(outside)])].join("\n\n")
    return { ...BashRun.toOutput(result), output: text } satisfies Output
  })

  return Tool.make({
    description: describe(sandbox),
    input: Input,
    output: Output,
    execute,
    requests: (input) => Effect.map(plan(input), (planned) => planned.requests),
    toModelOutput: ({ output }) => [{ type: "text", text: output.output }],
    preview: "tail",
    saved: (output) => output.outputPath,
    // A shell a signal ended (a timeout, a stop) has no exit status: `exit` is null then.
    exitCode: (output) => output.exit ?? undefined,
  })
})

export const make = makeWith()
