/**
 * Many Locations in one server (issue 17, item 5), against a real server: two directories at
 * once, each with its own session and asks and each list showing only its own; the roots a
 * request may name (the directory serve started in and below, or `server.directories` of the
 * global or explicit config file, never of a project file); 403 outside them, also through a
 * link, and 400 for a directory that does not exist.
 */
import { mkdir, symlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ConfigError } from "../../src/config/errors.js"
import { Directories } from "../../src/directories.js"
import { Project } from "../../src/project.js"
import { ServerHub } from "../../src/server/hub.js"
import { ServerServe } from "../../src/server/serve.js"
import { madeSession, runCli } from "../lib/cli.js"
import { ASK_BASH, call, environmentOf, folders, pendingOf, session, start } from "../lib/server.js"
import type { Server } from "../lib/server.js"

const create = (server: Server, body: Record<string, unknown>) => Effect.promise(() => server.api("/api/session", { body }).then(({ status, body }) => ({ status, body })))

const forbidden = (directory: string) => ({ status: 403, body: { _tag: "ForbiddenError", message: ServerHub.Messages.forbidden(directory), directory } })

/** Writes the global config file of `home` (under the temp home). */
const globalConfig = (home: string, content: unknown) =>
  Effect.promise(async () => {
    const file = Directories.globalConfigFile(environmentOf(path.dirname(home), home))
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, JSON.stringify(content))
    return file
  })

describe("ServerHub", () => {
  it.live("serves two directories at once, each list showing only its own asks", () =>
    Effect.gen(function* () {
      const server = yield* start({
        setup: async ({ root }) => {
          await mkdir(path.join(root, "a"))
          await mkdir(path.join(root, "b"))
        },
      })
      const a = yield* session(server, { directory: path.join(server.root, "a"), rules: ASK_BASH })
      const b = yield* session(server, { directory: "b", rules: ASK_BASH })
      const inA = call(server, a, "bash", { command: "echo in-a" })
      const inB = call(server, b, "bash", { command: "echo in-b" })
      const [askA] = yield* pendingOf(server, a)
      const [askB] = yield* pendingOf(server, b)
      expect(askA.metadata.workdir).toBe(path.join(server.root, "a"))
      expect(askB.metadata.workdir).toBe(path.join(server.root, "b"))
      const listed = (directory: string) => Effect.promise(() => server.api(`/api/permission/request?directory=${directory}`)).pipe(Effect.map(({ body }) => body))
      const listA = yield* listed("a")
      const listB = yield* listed("b")
      expect(listA.location.directory).toBe(path.join(server.root, "a"))
      expect(listA.data).toEqual([askA])
      expect(listB.location.directory).toBe(path.join(server.root, "b"))
      expect(listB.data).toEqual([askB])
      // Each session's list and reply go to its own Location; a reply through the other session is 409, as in one Location.
      expect((yield* Effect.promise(() => server.api(`/api/session/${b}/permission`))).body.data).toEqual([askB])
      expect((yield* Effect.promise(() => server.api(`/api/session/${a}/permission/${askB.id}/reply`, { body: { reply: "once" } }))).status).toBe(409)
      expect((yield* Effect.promise(() => server.api(`/api/session/${b}/permission/${askB.id}/reply`, { body: { reply: "once" } }))).status).toBe(204)
      expect((yield* Effect.promise(() => inB)).body.kind).toBe("success")
      expect((yield* listed("a")).data).toEqual([askA])
      expect((yield* Effect.promise(() => server.api(`/api/session/${a}/permission/${askA.id}/reply`, { body: { reply: "reject" } }))).status).toBe(204)
      expect((yield* Effect.promise(() => inA)).body.kind).toBe("declined")
    }))

  it.live("refuses a directory outside the root with 403, also through a link, and one that does not exist with 400", () =>
    Effect.gen(function* () {
      const server = yield* start({
        setup: async ({ base, root }) => {
          await mkdir(path.join(base, "outside"))
          await symlink(path.join(base, "outside"), path.join(root, "link"))
        },
      })
      const outside = path.join(server.base, "outside")
      expect(yield* create(server, { directory: outside })).toEqual(forbidden(outside))
      expect(yield* create(server, { directory: "../outside" })).toEqual(forbidden(outside))
      expect(yield* create(server, { directory: "link" })).toEqual(forbidden(outside))
      expect(yield* create(server, { directory: "/" })).toEqual(forbidden("/"))
      expect(yield* Effect.promise(() => server.api(`/api/permission/request?directory=${encodeURIComponent(outside)}`).then(({ status, body }) => ({ status, body })))).toEqual(forbidden(outside))
      const missing = path.join(server.root, "missing")
      expect(yield* create(server, { directory: missing })).toEqual({ status: 400, body: { _tag: "InvalidRequestError", message: ServerHub.Messages.noDirectory(missing, "ENOENT"), field: "directory" } })
    }))

  it.live("refuses a session the CLI made outside the allowed roots with 403, though the database is shared", () =>
    Effect.gen(function* () {
      const server = yield* start({ setup: ({ base }) => mkdir(path.join(base, "outside")) })
      const outside = path.join(server.base, "outside")
      const made = yield* Effect.promise(() =>
        runCli(["call", "read", JSON.stringify({ path: "." })], { root: outside, env: { HOME: server.home, TOOLGATE_DATA_DIR: path.join(server.base, "data") } }),
      )
      const id = madeSession(made.stderr)
      expect(id).toMatch(/^ses_/)
      for (const route of [`/api/session/${id}/permission`, `/api/session/${id}/todo`, `/api/session/${id}/question`])
        expect(yield* Effect.promise(() => server.api(route).then(({ status, body }) => ({ status, body })))).toEqual(forbidden(outside))
      expect(yield* Effect.promise(() => server.api(`/api/session/${id}/call`, { body: { call: { name: "read", input: { path: "." } } } }).then(({ status, body }) => ({ status, body })))).toEqual(forbidden(outside))
    }))

  it.live("allows the roots of server.directories in the global config file, and no other", () =>
    Effect.gen(function* () {
      const server = yield* start({
        setup: async ({ base, home, root }) => {
          await mkdir(path.join(base, "second"))
          await mkdir(path.join(base, "third"))
          await Effect.runPromise(globalConfig(home, { server: { directories: [root, path.join(base, "second")] } }))
        },
      })
      const second = path.join(server.base, "second")
      const third = path.join(server.base, "third")
      const made = yield* create(server, { directory: second })
      expect(made.status).toBe(201)
      expect(made.body.data.location).toBe(second)
      expect((yield* create(server, {})).status).toBe(201)
      expect(yield* create(server, { directory: third })).toEqual(forbidden(third))
    }))

  it.live("neither lists nor revokes the saved approvals of a project outside server.directories, named by its id: they are as if absent", () =>
    Effect.gen(function* () {
      const server = yield* start({ setup: async ({ base }) => mkdir(path.join(base, "other")) })
      const other = path.join(server.base, "other")
      // An approval of a project the server may not open, saved by the CLI on the same data folder.
      const outside = path.join(server.base, "home", "notes.txt")
      yield* Effect.promise(() => writeFile(outside, "x\n"))
      const read = yield* Effect.promise(() => runCli(["call", "read", JSON.stringify({ path: outside }), "--dir", other, "--on-ask", "always"], { root: server.base }))
      expect(read.code).toBe(0)
      const listed = yield* Effect.promise(() => runCli(["approvals", "list", "--json", "--dir", other], { root: server.base }))
      const [approval] = JSON.parse(listed.stdout) as ReadonlyArray<{ readonly id: string; readonly projectID?: string }>
      expect(approval).toBeDefined()
      const projectID = Project.idOf(other)
      const shown = yield* Effect.promise(() => server.api(`/api/permission/saved?projectID=${projectID}`))
      expect([shown.status, shown.body]).toEqual([200, { data: [] }])
      const removed = yield* Effect.promise(() => server.api(`/api/permission/saved/${approval?.id}`, { method: "DELETE" }))
      expect(removed.status).toBe(404)
      const still = yield* Effect.promise(() => runCli(["approvals", "list", "--json", "--dir", other], { root: server.base }))
      expect(JSON.parse(still.stdout)).toEqual(JSON.parse(listed.stdout))
      // The server's own project is still listed by its id.
      const own = yield* Effect.promise(() => server.api(`/api/permission/saved?projectID=${Project.idOf(server.root)}`))
      expect(own.status).toBe(200)
    }))

  it.live("takes server.directories from --config too; without the start directory, it refuses it", () =>
    Effect.gen(function* () {
      const server = yield* start({
        setup: async ({ base }) => {
          await mkdir(path.join(base, "elsewhere"))
          await writeFile(path.join(base, "serve.json"), JSON.stringify({ server: { directories: ["elsewhere"] } }))
        },
        config: ({ base }) => path.join(base, "serve.json"),
      })
      const elsewhere = path.join(server.base, "elsewhere")
      expect(yield* create(server, {})).toEqual(forbidden(server.root))
      const made = yield* create(server, { directory: elsewhere, rules: ASK_BASH })
      expect(made.status).toBe(201)
      // A saved approval of a project there is listed and revoked, though the start directory is not allowed.
      const id = made.body.data.id as string
      const running = call(server, id, "bash", { command: "echo hi" })
      const [pending] = yield* pendingOf(server, id)
      expect((yield* Effect.promise(() => server.api(`/api/session/${id}/permission/${pending.id}/reply`, { body: { reply: "always", scope: "project" } }))).status).toBe(204)
      expect((yield* Effect.promise(() => running)).body.kind).toBe("success")
      const saved = (yield* Effect.promise(() => server.api(`/api/permission/saved?directory=${encodeURIComponent(elsewhere)}`))).body.data as ReadonlyArray<{ readonly id: string }>
      expect(saved.length).toBe(1)
      const removed = yield* Effect.promise(() => server.api(`/api/permission/saved/${saved[0]?.id}`, { method: "DELETE" }))
      expect({ status: removed.status, body: removed.body }).toEqual({ status: 204, body: undefined })
    }))

  it.live("refuses to start when the project file of its directory sets server, with the config's message", () =>
    Effect.gen(function* () {
      const { base, home, root } = yield* folders
      const file = path.join(root, Directories.CONFIG_FILE)
      yield* Effect.promise(() => writeFile(file, JSON.stringify({ server: { directories: ["/"] } })))
      const error = yield* Effect.scoped(
        ServerServe.serve({ port: 0, hostname: "127.0.0.1", hostnameGiven: false, root, environment: environmentOf(base, home), log: () => undefined, until: Effect.never }),
      ).pipe(Effect.flip)
      expect(error.message).toBe(ConfigError.Messages.invalidValue("server", file, "no value in a project file (it decides which directories toolgate serve opens)"))
    }))

  it.live("refuses a subdirectory whose project file sets server with 400 and the config's message", () =>
    Effect.gen(function* () {
      const server = yield* start({
        setup: async ({ root }) => {
          await mkdir(path.join(root, "sub"))
          await writeFile(path.join(root, "sub", Directories.CONFIG_FILE), JSON.stringify({ server: { directories: ["/"] } }))
        },
      })
      const sub = path.join(server.root, "sub")
      const detail = ConfigError.Messages.invalidValue("server", path.join(sub, Directories.CONFIG_FILE), "no value in a project file (it decides which directories toolgate serve opens)")
      expect(yield* create(server, { directory: "sub" })).toEqual({ status: 400, body: { _tag: "InvalidRequestError", message: ServerHub.Messages.noDirectory(sub, detail), field: "directory" } })
    }))
})
