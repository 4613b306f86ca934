/**
 * Session history: the tree before the first change of every assistant message, so a session
 * can be rewound. `before` is called by every file-changing tool right before its first write
 * under a message (the first call per message records; later ones do nothing). `revert` puts
 * every file changed since a message back as it was before it, after recording the current
 * tree so that `unrevert` can undo the revert. Only the working tree is rewound: not network
 * requests, not files outside the Location, not processes.
 */
export * as History from "./history.js"

import { Clock, Context, Effect, Layer, Schema } from "effect"
import { Location } from "../location/location.js"
import { Project } from "../project.js"
import { Database } from "../storage/database.js"
import { Snapshot } from "./snapshot.js"

export const Messages = {
  noSnapshot: (sessionID: string, messageID: string) => `No snapshot was recorded before message ${messageID} of session ${sessionID}`,
  nothingToUnrevert: (sessionID: string) => `Nothing to unrevert in session ${sessionID}`,
  disabled: "Snapshots are disabled (git is not on PATH), so nothing can be reverted",
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

export type Error = NotFoundError | DisabledError | Snapshot.Error

export interface Interface {
  /** Records the tree before the first change under `messageID`; a no-op after that, or without git. */
  readonly before: (sessionID: string, messageID: string) => Effect.Effect<void>
  /** Restores every file changed since `messageID` to its state before it; returns those paths. */
  readonly revert: (sessionID: string, messageID: string) => Effect.Effect<ReadonlyArray<string>, Error>
  /** Undoes the last revert of the session; returns the paths it put back. */
  readonly unrevert: (sessionID: string) => Effect.Effect<ReadonlyArray<string>, Error>
  /** What the session changed since its first snapshot. */
  readonly diff: (sessionID: string) => Effect.Effect<ReadonlyArray<Snapshot.FileDiff>, Error>
}

export class Service extends Context.Service<Service, Interface>()("@toolgate/History") {}

interface Row {
  readonly message_id: string
  readonly tree: string
}

export const layer = Layer.effect(
  Service,
  Effect.gen(function* () {
    const { db } = yield* Database.Service
    const snapshot = yield* Snapshot.Service
    const insert = db.prepare<[string, string, string, number]>("INSERT OR IGNORE INTO snapshot (session_id, message_id, tree, created_at) VALUES (?, ?, ?, ?)")
    const recorded = db.prepare<[string, string], Row>("SELECT message_id, tree FROM snapshot WHERE session_id = ? AND message_id = ?")
    const first = db.prepare<[string], Row>("SELECT message_id, tree FROM snapshot WHERE session_id = ? ORDER BY created_at, rowid LIMIT 1")
    const saveRevert = db.prepare<[string, string, string, number]>("INSERT OR REPLACE INTO revert (session_id, message_id, tree, created_at) VALUES (?, ?, ?, ?)")
    const lastRevert = db.prepare<[string], Row>("SELECT message_id, tree FROM revert WHERE session_id = ?")
    const dropRevert = db.prepare<[string]>("DELETE FROM revert WHERE session_id = ?")

    const current = Effect.flatMap(snapshot.track, (tree) => (tree === undefined ? Effect.fail(new DisabledError()) : Effect.succeed(tree)))

    /** Puts back, from `tree`, every path that differs between it and the work tree now. */
    const rewind = Effect.fnUntraced(function* (tree: string) {
      const now = yield* current
      const changed = (yield* snapshot.diff(tree, now)).map((file) => file.path)
      yield* snapshot.restore(tree, changed)
      return { now, changed }
    })

    const before = (sessionID: string, messageID: string) =>
      Effect.gen(function* () {
        if (recorded.get(sessionID, messageID) !== undefined) return
        const tree = yield* snapshot.track
        if (tree === undefined) return
        insert.run(sessionID, messageID, tree, yield* Clock.currentTimeMillis)
      }).pipe(
        // A snapshot is a safety net, not a precondition: a failure to take one never fails the call.
        Effect.catchTag("Snapshot.GitError", (error) => Effect.logWarning(error.message)),
        Effect.withSpan("History.before"),
      )

    const revert = Effect.fn("History.revert")(function* (sessionID: string, messageID: string) {
      const row = recorded.get(sessionID, messageID)
      if (row === undefined) return yield* new NotFoundError({ sessionID, messageID })
      const { now, changed } = yield* rewind(row.tree)
      saveRevert.run(sessionID, messageID, now, yield* Clock.currentTimeMillis)
      return changed
    })

    const unrevert = Effect.fn("History.unrevert")(function* (sessionID: string) {
      const row = lastRevert.get(sessionID)
      if (row === undefined) return yield* new NotFoundError({ sessionID })
      const { changed } = yield* rewind(row.tree)
      dropRevert.run(sessionID)
      return changed
    })

    const diff = Effect.fn("History.diff")(function* (sessionID: string) {
      const row = first.get(sessionID)
      if (row === undefined) return []
      return yield* snapshot.diff(row.tree)
    })

    return Service.of({ before, revert, unrevert, diff })
  }),
)

/** The project's shadow repository, for the Location's project. */
export const snapshotLayer = (dataDir: string) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const project = yield* Project.Service
      const location = yield* Location.Service
      return Snapshot.layer({ dataDir, projectID: project.id, location: location.directory })
    }),
  )

/** History with its shadow repository, needing only the database, the project and the Location. */
export const layerWithSnapshot = (dataDir: string) => layer.pipe(Layer.provideMerge(snapshotLayer(dataDir)))
