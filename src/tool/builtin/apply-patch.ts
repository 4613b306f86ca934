/**
 * The `apply_patch` tool (06): add, delete, update and move files with one `*** Begin Patch`
 * text, all or nothing. Order: parse everything → resolve every target and move destination →
 * one batched `external_directory` ask for the external ones (before reading them) → read and
 * compute every new content in memory (a failure here changes nothing) → one `edit` ask with all
 * resources and the combined diff → under the lock of every real path: recheck each target,
 * refuse if a file changed since it was read, then commit transactionally (transaction.ts).
 * Old content reaches the model only when it may read every file the diff quotes. `requests`
 * lists the same asks from the same preparation, the `edit` one without its diff.
 */
export * as ApplyPatchTool from "./apply-patch.js"

import { lstatSync, readlinkSync } from "node:fs"
import { Effect, Schema } from "effect"
import { FileMutation } from "../../location/file-mutation.js"
import { LocationMutation } from "../../location/mutation.js"
import { Permission } from "../../permission/permission.js"
import type { PermissionShown } from "../../permission/shown.js"
import { History } from "../../snapshot/history.js"
import { Tool } from "../tool.js"
import { ApplyPatchParse } from "./apply-patch/parse.js"
import { ApplyPatchPlan } from "./apply-patch/plan.js"
import { ApplyPatchTransaction } from "./apply-patch/transaction.js"
import { FileAccess } from "./file-access.js"
import { ReadFile } from "./read/file.js"
import { Tracing } from "../../tracing.js"

export const name = "apply_patch"
/** The permission action of every file change. */
export const EDIT_ACTION = "edit"

/** How many files are resolved, read or checked at once. */
export const CONCURRENCY = 16

export const DESCRIPTION = [
  "Applies a patch that adds, deletes, updates or moves files, all or nothing: if any part fails, no file is changed.",
  "The patch is plain text in this format:",
  "*** Begin Patch",
  "*** Add File: <path>        (then the new file's lines, each starting with +)",
  "*** Delete File: <path>",
  "*** Update File: <path>",
  "*** Move to: <path>         (optional, right after Update File: rename the file)",
  "@@ <a line above the change> (starts each change; the line after @@ is optional)",
  "Then the lines of the change: ' ' (a space) for unchanged context, '-' for a removed line, '+' for an added line.",
  "*** End of File             (optional: the change is at the end of the file)",
  "*** End Patch",
  "Give about 3 lines of context around each change, copied exactly from the file; paths are relative to the working directory or absolute.",
  "Example:",
  "*** Begin Patch",
  "*** Add File: hello.txt",
  "+Hello, world!",
  "*** Update File: src/app.py",
  "@@ def greet():",
  '-    print("Hi")',
  '+    print("Hello")',
  "*** Delete File: obsolete.txt",
  "*** End Patch",
].join("\n")

export const Messages = {
  ...ApplyPatchParse.Messages,
  ...ApplyPatchPlan.Messages,
  ...ApplyPatchTransaction.Messages,
  unreadable: (path: string, detail: string) => `Failed to read ${path}: ${detail}`,
  modified: (path: string) => `File ${path} was modified while the patch was awaiting approval. Read it again and retry.`,
  success: "Success. Updated the following files:",
  /** The success text: the header, then one `A|M|D <path>` line per file. */
  updated: (files: ReadonlyArray<ApplyPatchPlan.File>) => [Messages.success, ...files.map((file) => `${file.status} ${file.path}`)].join("\n"),
} as const

export const Input = Schema.Struct({
  patchText: Schema.String.annotate({ description: "The full patch text, from '*** Begin Patch' to '*** End Patch'" }),
}).annotate({ identifier: "ApplyPatchTool.Input" })
export type Input = typeof Input.Type

export const Output = Schema.Struct({
  files: Schema.Array(Schema.Struct({ status: Schema.Literals(["A", "M", "D"]), path: Schema.String })),
  diff: Schema.String,
}).annotate({ identifier: "ApplyPatchTool.Output" })
export type Output = typeof Output.Type

type Target = LocationMutation.Target

const fail = (message: string) => Effect.fail(new Tool.Failure({ message }))

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error)

/** Distinct values in first-seen order. */
const distinct = <A>(values: ReadonlyArray<A>): ReadonlyArray<A> => [...new Set(values)]

/**
 * What is at a real path: a link's target text (a delete or move resolves the link itself), or
 * its bytes, mode and owner, opened the way `read` opens (no link followed).
 */
const load = async (real: string): Promise<ApplyPatchPlan.Disk> => {
  if (lstatSync(real, { throwIfNoEntry: false })?.isSymbolicLink() === true) return { type: "link", bytes: readlinkSync(real, { encoding: "buffer" }) }
  const small = ReadFile.readSmall(real)
  if (small.type === "large") return loadLarge(real)
  return small.type === "file" || small.type === "missing" ? small : unusable(small.type)
}

const unusable = (type: "directory" | "moved" | "other"): ApplyPatchPlan.Disk => ({
  type: "unusable",
  reason: type === "directory" ? ApplyPatchPlan.REASONS.directory : ApplyPatchPlan.REASONS.other,
})

/** Whether anything is at `real` (a file the patch may update). */
const exists = (real: string) => lstatSync(real, { throwIfNoEntry: false }) !== undefined

const loadLarge = async (real: string): Promise<ApplyPatchPlan.Disk> => {
  const opened = await ReadFile.open(real)
  if (opened.type !== "file") return opened.type === "missing" ? opened : unusable(opened.type)
  try {
    const { mode, uid, gid } = await opened.handle.stat()
    return { type: "file", bytes: await ReadFile.readAll(opened.handle, opened.size), mode, links: opened.links, owner: { uid, gid } }
  } finally {
    await opened.handle.close()
  }
}

const loadTarget = (target: Target) =>
  Effect.tryPromise({ try: () => load(target.real), catch: (error) => new Tool.Failure({ message: Messages.unreadable(target.resource, errno(error)) }) })

/** Whether `change`'s path still holds what the plan read: the same bytes, or still no file. */
const unchanged = (change: ApplyPatchPlan.Change) =>
  Effect.map(
    Effect.promise(() => load(change.place.real).catch(() => undefined)),
    (now) => ApplyPatchPlan.holds(change, now),
  )

/** One hunk with its path (and move destination) resolved. */
const resolveHunk = (access: FileAccess.Interface, hunk: ApplyPatchParse.Hunk): Effect.Effect<ApplyPatchPlan.Step & { readonly target: Target; readonly move?: Target | undefined }, Tool.Failure> =>
  Effect.gen(function* () {
    const target = yield* access.resolveWrite(hunk.path, ApplyPatchPlan.kindOf(hunk))
    if (hunk.type === "add") return { type: "add", target, contents: hunk.contents } as const
    if (hunk.type === "delete") return { type: "delete", target } as const
    const move = hunk.move === undefined ? undefined : yield* access.resolveWrite(hunk.move, "entry")
    return { type: "update", target, move, chunks: hunk.chunks } as const
  })

/** The steps of the patch with every path resolved, every target in patch order, and how each was resolved. */
const resolveAll = Effect.fnUntraced(function* (access: FileAccess.Interface, hunks: ReadonlyArray<ApplyPatchParse.Hunk>) {
  const steps = yield* Effect.forEach(hunks, (hunk) => resolveHunk(access, hunk), { concurrency: CONCURRENCY })
  const targets = steps.flatMap((step) => (step.move === undefined ? [step.target] : [step.target, step.move]))
  const kinds = new Map<Target, LocationMutation.Kind>(
    steps.flatMap((step, index) => [[step.target, ApplyPatchPlan.kindOf(hunks[index] as ApplyPatchParse.Hunk)] as const, ...(step.move === undefined ? [] : [[step.move, "entry"] as const])]),
  )
  return { steps, targets, kinds }
})

export const make = Effect.gen(function* () {
  const access = yield* FileAccess.Service
  const mutation = yield* FileMutation.Service
  const history = yield* History.Service
  const permission = yield* Permission.Service

  /** The first target the model may not read, if any: one check for all, then one at a time. */
  const firstHidden = Effect.fnUntraced(function* (context: Tool.Context, shown: ReadonlyArray<Target>) {
    if (shown.length === 0) return undefined
    const all = yield* permission.allows({ sessionID: context.sessionID, action: FileAccess.READ_ACTION, resources: distinct(shown.map((target) => target.resource)) })
    if (all) return undefined
    const found = yield* Effect.findFirst(shown, (target) => Effect.map(access.mayRead(context, target), (visible) => !visible))
    return found._tag === "Some" ? found.value : undefined
  })

  /** Under the lock: recheck every target, refuse any change since the read, then commit. */
  const commit = Effect.fnUntraced(function* (targets: ReadonlyArray<Target>, kinds: ReadonlyMap<Target, LocationMutation.Kind>, plan: ApplyPatchPlan.Plan, context: Tool.Context) {
    yield* Effect.forEach(targets, (target) => access.recheck(target, kinds.get(target) ?? "file"), { discard: true, concurrency: CONCURRENCY })
    const kept = yield* Effect.forEach(plan.changes, unchanged, { concurrency: CONCURRENCY })
    const changed = plan.changes.find((_, index) => !kept[index])
    if (changed !== undefined) return yield* fail(Messages.modified(changed.place.resource))
    const failed = yield* history.record(
      { sessionID: context.sessionID, messageID: context.assistantMessageID, paths: targets.map((target) => target.real) },
      ApplyPatchTransaction.commit(plan.changes),
    )
    if (failed !== undefined) return yield* fail(ApplyPatchTransaction.message(failed))
  })

  /**
   * Parse and resolve, and the requests: `external_directory` for the external targets and
   * `read` for every existing file an update changes (`before`), then `edit` on every target,
   * asked with the combined diff once every new content is computed.
   */
  const prepare = Effect.fnUntraced(function* (input: Input, sessionID: string | undefined) {
    const hunks = ApplyPatchParse.parse(input.patchText)
    if (ApplyPatchParse.isError(hunks)) return yield* fail(hunks.message)
    const { steps, targets, kinds } = yield* resolveAll(access, hunks)
    // Whether an update applies depends on the file's content: `read` first, or apply_patch would
    // be an oracle on what `read` protects. Adds and deletes depend only on what exists.
    const updated = distinct(steps.flatMap((step) => (step.type === "update" && exists(step.target.real) ? [step.target] : [])))
    const reads = FileAccess.reads(updated)
    const before = [...access.externals(sessionID, targets, EDIT_ACTION), ...reads.requests]
    return { steps, targets, kinds, updated, linked: reads.linked, before, edit: FileAccess.actionRequest(EDIT_ACTION, targets) }
  })

  const execute = Tracing.fn("ApplyPatchTool.execute")(function* (input: Input, context: Tool.Context) {
    const { steps, targets, kinds, updated, linked: asked, before, edit } = yield* prepare(input, context.sessionID)
    yield* Tool.askAll(permission, context, before)
    const reals = distinct(targets.map((target) => target.real))
    const byReal = new Map(targets.map((target) => [target.real, target]))
    const disk = new Map(yield* Effect.forEach(reals, (real) => Effect.map(loadTarget(byReal.get(real) as Target), (found) => [real, found] as const), { concurrency: CONCURRENCY }))
    const relinked = updated.find((target) => {
      const found = disk.get(target.real)
      return found?.type === "file" && !FileAccess.stillJudged(asked, target.real, found.links ?? 1)
    })
    if (relinked !== undefined) return yield* fail(LocationMutation.Messages.changed(relinked.input))
    // A file that appeared after `read` was decided would be updated unread: refuse, as for a new link.
    const appeared = steps.find((step) => step.type === "update" && !updated.some((target) => target.real === step.target.real) && disk.get(step.target.real)?.type !== "missing")
    if (appeared !== undefined) return yield* fail(LocationMutation.Messages.changed(appeared.target.input))
    const plan = ApplyPatchPlan.make(steps, disk)
    if (ApplyPatchPlan.isError(plan)) return yield* fail(plan.message)
    yield* Tool.ask(permission, context, { ...edit, metadata: { diff: plan.diff } satisfies PermissionShown.Shown })
    yield* mutation.withLock(reals, commit(targets, kinds, plan, context))
    const readable = new Set(updated.map((target) => target.real))
    const hidden = yield* firstHidden(context, plan.shown.filter((place) => !readable.has(place.real)).map((place) => byReal.get(place.real) as Target))
    return { files: plan.files, diff: hidden === undefined ? plan.diff : FileAccess.Messages.withheld(hidden.resource) } satisfies Output
  })

  return Tool.make({
    description: DESCRIPTION,
    input: Input,
    output: Output,
    execute,
    toModelOutput: ({ output }) => [{ type: "text", text: [Messages.updated(output.files), output.diff].filter((part) => part !== "").join("\n\n") }],
    requests: (input, context) => Effect.map(prepare(input, context.sessionID), (prepared) => [...prepared.before, prepared.edit]),
  })
})
