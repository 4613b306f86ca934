/**
 * The permission gate wired for tests: a real SQLite file (or the PostgreSQL database `storage`
 * names) and a real Location in a temp folder,
 * the real bus, interaction store, sessions, approvals and audit log, and a config given by the test.
 */
import { mkdir } from "node:fs/promises"
import path from "node:path"
import { Effect, Layer, Queue, Stream } from "effect"
import { Bus } from "../../src/bus.js"
import { Config } from "../../src/config.js"
import { Location } from "../../src/location/location.js"
import { Approvals } from "../../src/permission/approvals.js"
import { AuditLog } from "../../src/permission/audit-log.js"
import { Permission } from "../../src/permission/permission.js"
import { Project } from "../../src/project.js"
import { Session } from "../../src/session.js"
import { Database } from "../../src/storage/database.js"
import { PostgresSql } from "../../src/storage/postgres.js"
import type { Sql } from "../../src/storage/sql.js"
import { InteractionStore } from "../../src/interaction/store.js"
import { tmpdir } from "./tmp.js"

export interface Options {
  readonly config?: Partial<Config.Info>
  readonly askPolicy?: Permission.AskPolicy
  /** Reuse this root (and so its database) instead of a fresh temp folder. */
  readonly root?: string
  /** The Location folder under the root (default `work`). */
  readonly work?: string
  /** Treat the Location's volume as case-insensitive (default: detected), to test folding on any volume. */
  readonly caseInsensitive?: boolean
  /** A PostgreSQL URL to keep the state in instead of the SQLite file. */
  readonly storage?: string
}

/** The Location, with its case rule detected or as the test says. */
const locationLayer = (directory: string, caseInsensitive: boolean | undefined) =>
  caseInsensitive === undefined
    ? Location.layer(directory)
    : Layer.effect(Location.Service, Effect.map(Location.resolve(directory), (real) => Location.Service.of({ id: Location.idOf(real), directory: real, caseInsensitive })))

export const gateLayer = (root: string, options: Options = {}) => {
  const dataDir = path.join(root, "data")
  const location = path.join(root, options.work ?? "work")
  const storage = options.storage === undefined ? Database.layer(path.join(dataDir, "toolgate.db")) : PostgresSql.layer(options.storage)
  const base = Layer.mergeAll(Bus.layer, storage, locationLayer(location, options.caseInsensitive), Config.layerOf(options.config))
  return Permission.layer({ home: path.join(root, "home"), ...(options.askPolicy === undefined ? {} : { askPolicy: options.askPolicy }) }).pipe(
    Layer.provideMerge(Layer.mergeAll(Session.layer, Approvals.layer, AuditLog.layer)),
    Layer.provideMerge(InteractionStore.layer),
    Layer.provideMerge(Project.layer),
    Layer.provideMerge(base),
  )
}

export type Gate = Permission.Service | InteractionStore.Service | Session.Service | Approvals.Service | AuditLog.Service | Project.Service | Bus.Service | Location.Service | Sql.Service | Config.Service

/** A fresh root with its `work` Location folder made. */
export const makeRoot = Effect.gen(function* () {
  const root = yield* tmpdir
  yield* Effect.promise(() => mkdir(path.join(root, "work"), { recursive: true }))
  return root
})

/** Every `permission.asked` from now on, in a queue the test can take from. */
export const askedQueue = Effect.gen(function* () {
  const bus = yield* Bus.Service
  const queue = yield* Queue.unbounded<Permission.Request>()
  const stream = yield* bus.on(Permission.Asked)
  yield* stream.pipe(Stream.runForEach((event) => Queue.offer(queue, event.payload)), Effect.forkScoped)
  return queue
})

export const source = { toolCallID: "call_t", messageID: "msg_t" }
