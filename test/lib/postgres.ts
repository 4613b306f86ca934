/**
 * A real PostgreSQL for the tests: a throwaway cluster (initdb into a temporary folder, started
 * with pg_ctl on a free loopback port, fsync off), stopped and deleted when the test file ends.
 * Run as root (CI), the server runs as the `postgres` user, which refuses nothing of ours: the
 * cluster trusts local connections, and it listens on 127.0.0.1 only.
 *
 * Where no PostgreSQL is installed, `available` says why and the suites that need it are
 * skipped with that reason printed; with `TOOLGATE_TEST_POSTGRES=required` (set by .ci/run) a
 * missing PostgreSQL fails instead.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import os from "node:os"
import path from "node:path"
import { Effect } from "effect"
import pg from "pg"
import { afterAll, beforeAll } from "vitest"
import { PostgresSql } from "../../src/storage/postgres.js"

const REQUIRED = process.env.TOOLGATE_TEST_POSTGRES === "required"

/** The folder of `initdb` and `pg_ctl`: on PATH, else Debian's newest `/usr/lib/postgresql/<n>/bin`. */
const binaries = (): string | undefined => {
  const onPath = (process.env.PATH ?? "").split(":").find((folder) => folder !== "" && existsSync(path.join(folder, "initdb")) && existsSync(path.join(folder, "pg_ctl")))
  if (onPath !== undefined) return onPath
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return undefined
  const newest = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(path.join(root, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a))[0]
  return newest === undefined ? undefined : path.join(root, newest, "bin")
}

const BIN = binaries()
const asRoot = process.getuid?.() === 0
const postgresUser = (() => {
  if (!asRoot) return undefined
  const found = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" })
  return found.status === 0 ? { uid: Number(found.stdout.trim()), gid: Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim()) } : undefined
})()

/** Why PostgreSQL tests cannot run here, or undefined when they can. */
export const unavailable: string | undefined =
  BIN === undefined ? "no PostgreSQL server is installed (initdb and pg_ctl not found; apt-get install postgresql)" : asRoot && postgresUser === undefined ? "running as root without a postgres user to run the server as" : undefined

if (unavailable !== undefined && REQUIRED) throw new Error(`TOOLGATE_TEST_POSTGRES=required, but ${unavailable}`)
if (unavailable !== undefined) console.warn(`PostgreSQL tests skipped: ${unavailable}`)

const run = (program: string, args: ReadonlyArray<string>) => {
  const [command, prefix] = asRoot ? ["runuser", ["-u", "postgres", "--", path.join(BIN as string, program)]] : [path.join(BIN as string, program), []]
  return execFileSync(command as string, [...(prefix as string[]), ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

export interface Cluster {
  readonly port: number
  /** A URL of a new, empty database in the cluster. */
  readonly database: () => Promise<string>
  readonly stop: () => void
  /** Starts it again after `stop` (the same data, the same port). */
  readonly start: () => void
  /** Stops and deletes it. */
  readonly destroy: () => void
}

let databases = 0

/** A new cluster, started. */
export const cluster = async (): Promise<Cluster> => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "toolgate-pg-"))
  chmodSync(dir, 0o755)
  const data = path.join(dir, "data")
  if (postgresUser !== undefined) chownSync(dir, postgresUser.uid, postgresUser.gid)
  run("initdb", ["-D", data, "-A", "trust", "-U", "toolgate", "--no-sync", "-E", "UTF8"])
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`
  const start = () => void run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "-t", "60", "start"])
  const stop = () => void run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"])
  start()
  const url = (name: string) => `postgres://toolgate@127.0.0.1:${port}/${name}`
  const database = async () => {
    const name = `t${process.pid}_${++databases}`
    const client = new pg.Client({ connectionString: url("postgres") })
    await client.connect()
    try {
      await client.query(`CREATE DATABASE ${name}`)
    } finally {
      await client.end()
    }
    return url(name)
  }
  let destroyed = false
  const destroy = () => {
    if (destroyed) return
    destroyed = true
    try {
      stop()
    } catch {
      // Deliberate: a cluster already stopped (a test stopped it) is stopped.
    }
    rmSync(dir, { recursive: true, force: true })
  }
  process.once("exit", destroy)
  return { port, database, stop, start, destroy }
}

/**
 * One cluster for the calling test file: started before its tests (where PostgreSQL is
 * available), deleted after them. The getter is for the tests' bodies.
 */
export const clusterForFile = (): (() => Cluster) => {
  let made: Cluster | undefined
  beforeAll(async () => {
    if (unavailable === undefined) made = await cluster()
  }, 120_000)
  afterAll(() => made?.destroy())
  return () => made as Cluster
}

/**
 * The database at `owner` (the schema's owner) migrated, and a login role `role` with the grants
 * of docs/postgres.md (PostgresSql.grants); the URL that connects as that role.
 */
export const applicationRole = async (owner: string, role: string): Promise<string> => {
  await Effect.runPromise(Effect.scoped(Effect.provide(Effect.void, PostgresSql.layer(owner))))
  const admin = new pg.Client({ connectionString: owner })
  await admin.connect()
  try {
    await admin.query(`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${role}') THEN CREATE ROLE ${role} LOGIN; END IF; END $$`)
    for (const statement of PostgresSql.grants(role)) await admin.query(statement)
  } finally {
    await admin.end()
  }
  return owner.replace("toolgate@", `${role}@`)
}
