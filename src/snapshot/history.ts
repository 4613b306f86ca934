/**
 * Session history: every change toolgate makes in the work tree, logged with the states before
 * and after (change-log.ts), so a session can be rewound without touching anyone else's work.
 * File tools wrap their write in `record` with the paths they write (recorded even when
 * gitignored); bash calls `before`, and whatever differs when the session's call settles (the one
 * call path, session/turn.ts, calls `settle`) is its change (best effort: a person's edit during
 * the command counts as the command's).
 * `revert` restores only what those changes wrote, keeps any file the person changed since
 * (a conflict), and `unrevert` returns to the state before the first revert of a chain
 * (revert-plan.ts). Only the working tree is rewound: not network requests, not files outside
 * the Location, not processes.
 */
export * as History from "./history.js"

import { Clock, Context, Effect, Layer, Schema, Semaphore } from "effect"
import { Location } from "../location/location.js"
import { Project } from "../project.js"
import { Sql } from "../storage/sql.js"
import { Owner } from "../storage/owner.js"
import { ChangeLog } from "./change-log.js"
import { Interrupted } from "./interrupted.js"
import { RevertPlan } from "./revert-plan.js"
import { Snapshot } from "./snapshot.js"
import type { TreeEntry } from "./tree-entry.js"
import { Tracing } from "../tracing.js"

export const Messages = {
  noSnapshot: (sessionID: string, messageID: string) => `No snapshot was recorded before message ${messageID} of session ${sessionID}`,
  nothingToUnrevert: (sessionID: string) => `Nothing to unrevert in session ${sessionID}`,
  disabled: "Snapshots are disabled (git is not on PATH), so nothing can be reverted",
  running: (sessionID: string, pid: number | undefined) =>
    `Session ${sessionID} has a call still running${pid === undefined ? "" : ` in process ${pid}`}: its files cannot be reverted or unreverted until it settles. Wait for it, or stop it, and try again.`,
  finished: (sessionID: string, paths: ReadonlyArray<string>) =>
    `${paths.length === 1 ? "A file" : `${paths.length} files`} of session ${sessionID} had been cut off mid-write when a revert was interrupted; finished from the revert: ${paths.slice(0, 10).join(", ")}${paths.length > 10 ? ", …" : ""}`,
} as const

export class NotFoundError extends Schema.TaggedError<NotFoundError>()("History.NotFoundError", {
  sessionID: Schema.String,
  messageID: Schema.optional(Schema.String),
}) {
  override get message() {
    return this.messageID === undefined ? Messages.nothingToUnrevert(this.sessionID) : Messages.noSnapshot(this.sessionID, this.messageID)
  }
}

export class DisabledError extends Schema.TaggedError<DisabledError>()("History.DisabledError", {}) {
  override get message() {
    return Messages.disabled
  }
}

/** A call of the session is still writing: a revert now would race it, and its change is not logged yet. */
export class RunningError extends Schema.TaggedError<RunningError>()("History.RunningError", {
  sessionID: Schema.String,
  pid: Schema.optional(Schema.Number),
}) {
  override get message() {
    return Messages.running(this.sessionID, this.pid)
  }
}

export type Error = NotFoundError | DisabledError | RunningError | Snapshot.Error

/** A file tool's change: the files it is about to write, absolute or Location-relative. */
export interface Change {
  readonly sessionID: string
  readonly messageID: string
  readonly paths: ReadonlyArray<string>
}

export interface Interface {
  /**
   * For a shell command about to run: records the tree now, with the paths it names (even
   * gitignored ones); what differs once its call settles is its change.
   */
  readonly before: (sessionID: string, messageID: string, named?: ReadonlyArray<string>, callID?: string) => Effect.Effect<void>
  /**
   * Ends the running shell changes of the session's call `callID` (of every call of the session
   * when absent): what differs now is theirs. Runs when a call settles; another call's command,
   * still running, keeps its change open.
   */
  readonly settle: (sessionID: string, callID?: string) => Effect.Effect<void>
  /** Runs `write`, recording the named paths before and after it (even gitignored ones). Never fails because of a snapshot. */
  readonly record: <A, E, R>(change: Change, write: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** What `revert` would do, changing no file: the dry run. */
  readonly plan: (sessionID: string, messageID: string) => Effect.Effect<RevertPlan.Plan, Error>
  /** Restores what the session's changes from `messageID` on wrote to its state before them; keeps what the person changed since. */
  readonly revert: (sessionID: string, messageID: string) => Effect.Effect<RevertPlan.Plan, Error>
  /** Returns the files the reverts since the session's last change wrote to their state before the first of them. */
  readonly unrevert: (sessionID: string) => Effect.Effect<RevertPlan.Plan, Error>
  /** The files the session changed, from their state before its first change to them to now. */
  readonly diff: (sessionID: string) => Effect.Effect<ReadonlyArray<Snapshot.FileDiff>, Error>
  /**
   * The paths the session's calls wrote, from the log alone (no git, no diff): a file written and
   * put back as it was is still named. Cheap enough to ask for every session of a list.
   */
  readonly changed: (sessionID: string) => Effect.Effect<ReadonlyArray<string>>
  /** The messages whose calls changed files, oldest first, with the paths each wrote: what a revert can go back to. */
  readonly messages: (sessionID: string) => Effect.Effect<ReadonlyArray<Message>>
}

/** A message whose calls changed files (the log's tool and shell changes under one message id). */
export interface Message {
  readonly messageID: string
  readonly paths: ReadonlyArray<string>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/History") {}

const enabled = (tree: string | undefined) => (tree === undefined ? Effect.fail(new DisabledError()) : Effect.succeed(tree))

/** The changes the session's calls made (not its reverts and unreverts). */
const calls = (entries: ReadonlyArray<ChangeLog.Entry>) => entries.filter((entry) => entry.kind === "tool" || entry.kind === "shell")

/** Every path any change of the log wrote. */
const pathsOf = (entries: ReadonlyArray<ChangeLog.Entry>) => [...new Set(entries.flatMap((entry) => (entry.changes ?? []).map((change) => change.path)))]

const stateOf = (path: string, state: TreeEntry.Entry | undefined) => (state === undefined ? { path } : { path, state })

const writingBySql = new WeakMap<Sql.Interface, Set<number>>()
/** The ids of the entries this process writes now in the database behind `sql`. */
const writingOver = (sql: Sql.Interface): Set<number> => {
  const known = writingBySql.get(sql)
  if (known !== undefined) return known
  const made = new Set<number>()
  writingBySql.set(sql, made)
  return made
}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const sql = yield* Sql.Service
    const snapshot = yield* Snapshot.Service
    const log = ChangeLog.make(sql)
    const lock = Semaphore.makeUnsafe(1)
    /** Shell changes of this process still open, by log id. */
    const running = new Map<number, { readonly sessionID: string; readonly callID: string | undefined; readonly before: string; readonly named: ReadonlyArray<string> }>()
    /**
     * The entries this process is writing now (a shell command running, a file tool or a restore
     * between its entry's opening and closing), shared by every history over the same database:
     * one left open by a failure is not among them.
     */
    const writing = writingOver(sql)
    const here = (id: number) => writing.has(id)

    // A snapshot is a safety net, not a precondition: failing to take one never fails the call.
    const quiet = <R>(effect: Effect.Effect<void, Snapshot.GitError, R>) => effect.pipe(Effect.catchTag("Snapshot.GitError", (error) => Effect.logWarning(error.message)))

    const open = Effect.fnUntraced(function* (sessionID: string, kind: ChangeLog.Kind, messageID: string | undefined, before: string, writes: Pick<ChangeLog.OpenInput, "paths" | "target"> = {}) {
      const at = yield* Clock.currentTimeMillis
      // The tree before the message's first change, as spec 09 names it.
      if (kind === "tool" || kind === "shell")
        yield* sql.run("INSERT INTO snapshot (session_id, message_id, tree, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", [sessionID, messageID as string, before, at])
      const owner = Owner.encode(yield* Owner.Current)
      return yield* log.open({ sessionID, kind, before, at, owner, ...writes, ...(messageID === undefined ? {} : { messageID }) })
    })

    /**
     * Closes a log entry with what changed among `paths`; for a shell command (no `paths`), what
     * changed anywhere, the paths it named held as they are now (one it created, ignored or not).
     */
    const close = (id: number, before: string, paths?: ReadonlyArray<string>, named: ReadonlyArray<string> = []) =>
      Effect.gen(function* () {
        const tracked = yield* (paths === undefined ? snapshot.track : snapshot.stage(paths))
        // A shell command's: the ignored files it made without naming them (`mv .e* x/` made `x/.env`).
        const adopted = paths === undefined && tracked !== undefined ? [...named, ...(yield* snapshot.ignored)] : named
        const after = tracked === undefined || adopted.length === 0 ? tracked : yield* snapshot.adopt(adopted)
        if (after === undefined) return
        yield* log.close(id, after, yield* snapshot.changes(before, after, paths))
      })

    /**
     * The session's log, with the entries a dead process left open closed first (interrupted.ts).
     * Under `lock`: no restore of this process runs meanwhile.
     */
    const listed = Effect.fnUntraced(function* (sessionID: string) {
      const entries = yield* log.list(sessionID)
      const current = yield* Owner.Current
      const interrupted = entries.filter((entry) => Interrupted.isInterrupted(entry, current, here))
      if (interrupted.length === 0) return entries
      for (const entry of interrupted) {
        if (!Interrupted.restores(entry)) {
          yield* close(entry.id, entry.before, entry.paths)
          continue
        }
        const closing = yield* Interrupted.closeRestore(snapshot, entry)
        if (closing === undefined) continue
        if (closing.finished.length > 0) yield* Effect.logWarning(Messages.finished(sessionID, closing.finished))
        yield* log.close(entry.id, closing.after, closing.changes)
      }
      return yield* log.list(sessionID)
    })

    /**
     * Before any call in the Location starts: a change a dead process left open, in any session
     * here, is closed now, not at that session's next diff or revert. Closing counts whatever
     * differs since its start as its change, so the later it runs, the more it takes that is not
     * its own: the person's hand edits (a revert to its message rewound a file the session never
     * touched, edited hours after the kill) and every other session's work since (reverting the
     * killed session deleted the files another session made later). Only the gap between the kill
     * and the next call is left. Never fails the call.
     */
    const closeLeftOpen = () =>
      Effect.gen(function* () {
        const current = yield* Owner.Current
        const open = yield* log.unclosed(snapshot.location)
        const sessions = new Set(open.filter((entry) => Interrupted.isInterrupted(entry, current, here)).map((entry) => entry.sessionID))
        for (const sessionID of sessions) yield* lock.withPermits(1)(listed(sessionID))
      }).pipe(
        Effect.asVoid,
        Effect.catchTags({ "Snapshot.GitError": (error) => Effect.logWarning(error.message), "Snapshot.PathError": (error) => Effect.logWarning(error.message), "Snapshot.InTheWayError": (error) => Effect.logWarning(error.message) }),
      )

    const closeShell = (id: number) =>
      Effect.gen(function* () {
        const entry = running.get(id)
        if (entry === undefined) return
        running.delete(id)
        yield* close(id, entry.before, undefined, entry.named).pipe(Effect.ensuring(Effect.sync(() => writing.delete(id))))
      }).pipe(quiet, Effect.uninterruptible)

    const traced = Effect.withSpan("History.settle")
    /**
     * When a call of the session settled (the one call path runs it after every call). Nothing to
     * do, the common case, costs no fiber and no span.
     * Gotcha: the commands are looked up when the effect runs, not when it is built: the call path
     * builds it before the call starts (`Effect.ensuring`), when the call's command is not running yet.
     */
    const settle = (sessionID: string, callID?: string) =>
      Effect.suspend(() => {
        const ids: Array<number> = []
        for (const [id, entry] of running) if (entry.sessionID === sessionID && (callID === undefined || entry.callID === callID)) ids.push(id)
        return ids.length === 0 ? Effect.void : traced(Effect.forEach(ids, closeShell, { discard: true }))
      })

    // When the Location closes: a command whose settle was never seen closes now.
    yield* Effect.addFinalizer(() => Effect.forEach([...running.keys()], closeShell, { discard: true }))

    const before = (sessionID: string, messageID: string, named: ReadonlyArray<string> = [], callID?: string) =>
      Effect.gen(function* () {
        yield* closeLeftOpen()
        const tracked = yield* snapshot.track
        // Named paths join the snapshot even when ignored, as a file tool's do; from then on `track`
        // follows them. So do the ignored files it might reach without naming them (a glob, a
        // script, `find -exec`): a command that moved `.env` away could not be reverted otherwise.
        const ignored = tracked === undefined ? [] : yield* snapshot.ignored
        const own = Snapshot.recordable(snapshot.location, named)
        const mine = new Set(own)
        const others = Snapshot.recordable(snapshot.location, ignored).filter((rel) => !mine.has(rel))
        const adopted = tracked === undefined || others.length === 0 ? tracked : yield* snapshot.adopt(others)
        // Its own names by content (large ones too, up to a limit): it may be about to delete them.
        const tree = adopted === undefined || own.length === 0 ? adopted : yield* snapshot.keep(own)
        if (tree === undefined) return
        // Only its own names are adopted again when it settles (one it created); the ignored files
        // adopted now are in the snapshot, and `track` follows them from here.
        const id = yield* open(sessionID, "shell", messageID, tree)
        writing.add(id)
        running.set(id, { sessionID, callID, before: tree, named: own })
      }).pipe(quiet, Effect.withSpan("History.before"))

    const record = <A, E, R>(change: Change, write: Effect.Effect<A, E, R>) =>
      Effect.gen(function* () {
        const paths = Snapshot.recordable(snapshot.location, change.paths)
        if (paths.length > 0) yield* closeLeftOpen()
        const tree = paths.length === 0 ? undefined : yield* snapshot.stage(paths).pipe(Effect.catchTag("Snapshot.GitError", (error) => Effect.as(Effect.logWarning(error.message), undefined)))
        if (tree === undefined) return yield* write
        // Opened, marked and closed with no gap an interruption could fall into: an entry left open
        // and marked would make every revert of the session wait for this process to end.
        return yield* Effect.uninterruptibleMask((restore) =>
          Effect.flatMap(open(change.sessionID, "tool", change.messageID, tree, { paths }), (id) => {
            writing.add(id)
            return restore(write).pipe(Effect.ensuring(Effect.andThen(quiet(close(id, tree, paths)), Effect.sync(() => writing.delete(id)))))
          }),
        )
      }).pipe(Effect.withSpan("History.record"))

    /** The tree now, with every path the session ever wrote staged as it is (ignored ones too; large untracked ones by size). */
    const current = Effect.fnUntraced(function* (entries: ReadonlyArray<ChangeLog.Entry>) {
      yield* enabled(yield* snapshot.track)
      return yield* enabled(yield* snapshot.follow(pathsOf(entries)))
    })

    /** The decisions for a revert to `messageID`, or for an unrevert (no message), and the tree now. */
    const prepare = Effect.fnUntraced(function* (sessionID: string, messageID?: string) {
      const entries = yield* listed(sessionID)
      const owner = yield* Owner.Current
      const busy = entries.find((entry) => Interrupted.isLive(entry, owner, here))
      if (busy !== undefined) return yield* new RunningError({ sessionID, ...(here(busy.id) ? {} : { pid: Owner.decode(busy.owner as string)?.pid }) })
      const line = RevertPlan.timeline(entries)
      const touched = messageID === undefined ? undefined : RevertPlan.touched(line, messageID)
      if (messageID !== undefined && touched === undefined) return yield* new NotFoundError({ sessionID, messageID })
      const start = line.chain[0]
      if (messageID === undefined && start === undefined) return yield* new NotFoundError({ sessionID })
      const now = yield* current(entries)
      const chain = RevertPlan.written(line.chain)
      const paths = [...new Set([...chain.keys(), ...(touched?.keys() ?? [])])]
      const [states, base] = yield* Effect.all([snapshot.entries(now, paths), start === undefined ? Effect.succeed(undefined) : snapshot.entries(start.before, paths)])
      return { now, decisions: RevertPlan.make({ now: states, base: base ?? states, chain, ...(touched === undefined ? {} : { touched }) }) }
    })

    /** Writes the decisions and logs them; an unrevert is logged even when it writes nothing, as it ends the chain. */
    const apply = Effect.fnUntraced(function* (sessionID: string, messageID: string | undefined, prepared: { now: string; decisions: ReadonlyArray<RevertPlan.Decision> }) {
      const writes = prepared.decisions.filter((decision) => decision.step.action !== "keep")
      const paths = writes.map((decision) => decision.step.path)
      if (writes.length === 0 && messageID !== undefined) return prepared.decisions.map((decision) => decision.step)
      const target = yield* snapshot.compose(prepared.now, writes.map((decision) => stateOf(decision.step.path, decision.state)))
      // A path the restore may not touch fails it before anything is logged or written: nothing
      // happened, so the same revert can be tried again once the path is fixed.
      yield* snapshot.restorable(target, paths)
      // Logged even when a restore fails midway, so what was written counts as toolgate's. Not
      // interruptible once logged: git killed mid-checkout leaves some files written and its
      // index.lock, on which the log's close fails. The entry keeps its target and paths, so one
      // this process cannot close (killed outright) is closed by the next (interrupted.ts).
      yield* Effect.uninterruptible(
        Effect.flatMap(open(sessionID, messageID === undefined ? "unrevert" : "revert", messageID, prepared.now, { target, paths }), (id) =>
          Effect.sync(() => writing.add(id)).pipe(
            Effect.andThen(snapshot.restore(target, paths)),
            Effect.ensuring(Effect.andThen(quiet(close(id, prepared.now, paths)), Effect.sync(() => writing.delete(id)))),
          ),
        ),
      )
      return prepared.decisions.map((decision) => decision.step)
    })

    const plan = Tracing.fn("History.plan")(function* (sessionID: string, messageID: string) {
      const prepared = yield* lock.withPermits(1)(prepare(sessionID, messageID))
      return prepared.decisions.map((decision) => decision.step)
    })

    const revert = Tracing.fn("History.revert")(function* (sessionID: string, messageID: string) {
      return yield* lock.withPermits(1)(Effect.flatMap(prepare(sessionID, messageID), (prepared) => apply(sessionID, messageID, prepared)))
    })

    const unrevert = Tracing.fn("History.unrevert")(function* (sessionID: string) {
      return yield* lock.withPermits(1)(Effect.flatMap(prepare(sessionID), (prepared) => apply(sessionID, undefined, prepared)))
    })

    /** A call still running, as if it settled now (it stays open): what differs so far among its paths (a shell's: all). */
    const sofar = Effect.fnUntraced(function* (entry: ChangeLog.Entry) {
      const tree = yield* (entry.paths === undefined ? snapshot.track : snapshot.stage(entry.paths))
      if (tree === undefined) return entry
      return { ...entry, after: tree, changes: yield* snapshot.changes(entry.before, tree, entry.paths) }
    })

    const diff = Tracing.fn("History.diff")(function* (sessionID: string) {
      const owner = yield* Owner.Current
      const logged = yield* lock.withPermits(1)(listed(sessionID))
      const entries = yield* Effect.forEach(logged, (entry) => (Interrupted.isLive(entry, owner, here) ? sofar(entry) : Effect.succeed(entry)))
      const starts = new Map<string, TreeEntry.Entry | undefined>()
      for (const entry of calls(entries))
        for (const change of entry.changes ?? []) if (!starts.has(change.path)) starts.set(change.path, change.before)
      if (starts.size === 0) return []
      const now = yield* current(entries)
      const from = yield* snapshot.compose(now, [...starts].map(([path, state]) => stateOf(path, state)))
      return yield* snapshot.diff(from, now)
    })

    const changed = (sessionID: string) => Effect.map(log.list(sessionID), (entries) => pathsOf(calls(entries)))

    const messages = (sessionID: string) =>
      Effect.map(log.list(sessionID), (entries) => {
        const byMessage = new Map<string, Set<string>>()
        for (const entry of calls(entries)) {
          if (entry.messageID === undefined) continue
          const paths = byMessage.get(entry.messageID) ?? new Set<string>()
          for (const change of entry.changes ?? []) paths.add(change.path)
          byMessage.set(entry.messageID, paths)
        }
        return [...byMessage].map(([messageID, paths]) => ({ messageID, paths: [...paths] }))
      })

    return Service.of({ before, settle, record, plan, revert, unrevert, diff, changed, messages })
  }),
)

/** The project's shadow repository, for the Location's project. */
export const snapshotLayer = (dataDir: string) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const project = yield* Project.Service
      const location = yield* Location.Service
      return Snapshot.layer({ dataDir, projectID: project.id, location: location.directory, worktree: project.worktree })
    }),
  )

/** History with its shadow repository, needing only the database, the project and the Location. */
export const layerWithSnapshot = (dataDir: string) => layer.pipe(Layer.provideMerge(snapshotLayer(dataDir)))
