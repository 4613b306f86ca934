/**
 * A waiting process (docs/decisions.md, "A process that waits with the code loaded"): started
 * detached by a `toolgate` command, it listens on the socket of its fingerprint, loads the
 * commands' code, runs their common path once (warm-up.ts), and waits; a caller that comes before
 * that is refused and runs its command itself. It runs one command at a
 * time: for each it takes the caller's environment, directory, umask and arguments
 * (identity.ts), runs the command with an `Io` over the connection (relay-io.ts), and gives them
 * back. A caller that comes while it is busy runs its command itself. A command that holds its
 * caller for a session (`mcp`), and the last of `MAX_COMMANDS`, is its final one: it gives the
 * socket to a successor it starts, and ends after that command. It ends unused after its idle
 * time, or as soon as its socket is removed or replaced (its data folder deleted, a caller that
 * found it wedged).
 */
export * as WarmServer from "./server.js"

import { spawn } from "node:child_process"
import { Console } from "node:console"
import { closeSync, lstatSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { createConnection, createServer, type Server, type Socket } from "node:net"
import path from "node:path"
import { Writable } from "node:stream"
import { Bundle } from "../bundle.js"
import { ExitCode } from "../exit-code.js"
import { Cli } from "../main.js"
import { RelayIo } from "./relay-io.js"
import { WarmClient } from "./client.js"
import { WarmFingerprint } from "./fingerprint.js"
import { WarmIdentity } from "./identity.js"
import { WarmPlace } from "./place.js"
import { WarmUp } from "./warm-up.js"
import { WarmWire } from "./wire.js"

export const Messages = {
  refused: {
    version: "another version of toolgate, or not a request",
    command: "not a command a waiting process runs",
    fingerprint: "another fingerprint",
    directory: "the current directory is not a folder here",
    busy: "running another command",
    loading: "still loading",
  },
} as const

/** How often the socket is checked: removed or replaced, this process ends. */
export const WATCH_MS = 1_000
/** Commands one waiting process runs before it hands its socket to a successor: what one command leaves in memory stays bounded. */
export const MAX_COMMANDS = 100
/** How long after its last command starts a waiting process starts its successor. */
export const SUCCESSOR_DELAY_MS = 250
/** Commands that hold their caller for a session: the socket goes to a successor while they run. */
export const SESSIONS: ReadonlySet<string> = new Set(["mcp"])

export interface Options {
  /** The folder of the executable and the bundle. */
  readonly directory: string
  /** The folder of sockets (place.ts). */
  readonly folder: string
  /** The data folder, for the code cache. */
  readonly dataDir: string
  readonly idleMs: number
}

/** `O_CLOEXEC` in the flags of /proc/self/fdinfo (octal there). */
const CLOEXEC = 0o2000000

/**
 * Closes the descriptors above 2 this process inherited from the command that started it (and
 * from whatever started that): every descriptor Node opens is close-on-exec, an inherited one is
 * not. Kept, a pipe its caller's caller passed down (`… 200>&1 | cat`, a CI runner's or an
 * agent's descriptor for the process's output) would stay open in this process for as long as it
 * waits, and the reader at its other end would wait as long.
 */
export const closeInherited = (): void => {
  let descriptors: ReadonlyArray<string>
  try {
    descriptors = readdirSync("/proc/self/fd")
  } catch {
    return
  }
  for (const name of descriptors) {
    const fd = Number(name)
    if (!Number.isSafeInteger(fd) || fd <= 2) continue
    try {
      const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "latin1"))?.[1]
      if (flags !== undefined && (Number.parseInt(flags, 8) & CLOEXEC) === 0) closeSync(fd)
    } catch {
      // Deliberate: a descriptor gone already (the listing's own) needs no closing.
    }
  }
}

/** True when a live process listens on `file`. */
const listening = (file: string) =>
  new Promise<boolean>((resolve) => {
    const probe = createConnection(file)
    probe.once("connect", () => {
      probe.destroy()
      resolve(true)
    })
    probe.once("error", () => resolve(false))
  })

/** Listens on `file` (mode 0600); false when a live process already does, or the socket cannot be made. */
const listen = (server: Server, file: string, again = true): Promise<boolean> =>
  new Promise<boolean>((resolve) => {
    const umask = process.umask(0o177)
    server.once("error", (error: NodeJS.ErrnoException) => {
      process.umask(umask)
      if (error.code !== "EADDRINUSE" || !again) return resolve(false)
      void listening(file).then((alive) => {
        if (alive) return resolve(false)
        rmSync(file, { force: true })
        resolve(listen(server, file, false))
      })
    })
    server.listen(file, () => {
      process.umask(umask)
      resolve(true)
    })
  })

const inode = (file: string) => lstatSync(file, { throwIfNoEntry: false })?.ino

const isFolder = (directory: string) => {
  try {
    return statSync(directory).isDirectory()
  } catch {
    return false
  }
}

/** A stream whose bytes go to the caller's standard output or error as they are (what `console` prints). */
const raw = (socket: Socket, t: "out" | "err") =>
  new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      WarmWire.send(socket, { t, data: Buffer.from(chunk).toString("base64") })
      done()
    },
  })

export const run = async (options: Options): Promise<void> => {
  process.chdir("/")
  const digest = WarmFingerprint.build(options.directory)
  const fingerprint = digest === undefined ? undefined : WarmFingerprint.of(digest)
  const socketPath = fingerprint === undefined ? undefined : WarmPlace.socket(options.folder, WarmFingerprint.name(fingerprint))
  if (fingerprint === undefined || socketPath === undefined) return
  const startEnv = { ...process.env }
  const server = createServer()
  if (!(await listen(server, socketPath))) return void server.close()
  const own = inode(socketPath)
  const state: { offeredTo: Socket | undefined; busy: Socket | undefined; served: number; commands: Bundle.Commands | undefined } = {
    offeredTo: undefined,
    busy: undefined,
    served: 0,
    commands: undefined,
  }
  const timers: { idle: NodeJS.Timeout | undefined } = { idle: undefined }
  /** Stops waiting: no new command comes; the process ends when what runs has ended. */
  const release = () => {
    clearInterval(watch)
    clearTimeout(timers.idle)
    server.close()
    if (inode(socketPath) === own) rmSync(socketPath, { force: true })
  }
  const idleFromNow = () => {
    clearTimeout(timers.idle)
    timers.idle = setTimeout(release, options.idleMs)
  }
  const watch = setInterval(() => {
    if (inode(socketPath) !== own) release()
  }, WATCH_MS)
  idleFromNow()
  // What a command throws and nobody catches ends this process, as it would have ended the caller's.
  process.on("uncaughtException", (error) => {
    const socket = state.busy
    if (socket === undefined) process.exit(ExitCode.TOOL_FAILED)
    WarmWire.send(socket, { t: "err", data: Buffer.from(`${error instanceof Error ? error.stack : String(error)}\n`).toString("base64") })
    RelayIo.exitWith(socket, ExitCode.TOOL_FAILED)
  })

  const loaded = (async () => {
    const commands = Bundle.load({ directory: options.directory, cacheDir: path.join(options.dataDir, Bundle.CACHE_DIR), command: "warm" })
    if (commands === undefined) throw new Error("no bundle")
    for (const name of WarmClient.COMMANDS) await commands.load(name)
    await WarmUp.run(commands)
    state.commands = commands
  })()
  loaded.catch(release)

  const refuse = (socket: Socket, why: string) => WarmWire.send(socket, { t: "refuse", why }, () => socket.end())

  const offer = (socket: Socket, request: WarmWire.Request) => {
    if (socket.destroyed) return
    if (!WarmWire.isRequest(request)) return refuse(socket, Messages.refused.version)
    if (!WarmClient.COMMANDS.has(request.argv[0] ?? "")) return refuse(socket, Messages.refused.command)
    if (request.fingerprint !== fingerprint) return refuse(socket, Messages.refused.fingerprint)
    if (!isFolder(request.cwd)) return refuse(socket, Messages.refused.directory)
    if (state.busy !== undefined || state.offeredTo !== undefined) return refuse(socket, Messages.refused.busy)
    state.offeredTo = socket
    WarmWire.send(socket, { t: "offer", pid: process.pid })
  }

  /** Runs the caller's command; the relay that carries its messages. */
  const take = (socket: Socket, request: WarmWire.Request, commands: Bundle.Commands): RelayIo.Relay => {
    state.offeredTo = undefined
    state.busy = socket
    clearTimeout(timers.idle)
    state.served++
    const last = SESSIONS.has(request.argv[0] ?? "") || state.served >= MAX_COMMANDS
    if (last) {
      release()
      // After the command has started: forking this process costs the caller's first answer a few ms.
      setTimeout(() => spawn(process.execPath, process.argv.slice(1), { detached: true, stdio: "ignore", cwd: "/", env: startEnv }).unref(), SUCCESSOR_DELAY_MS)
    }
    const relay = RelayIo.make(socket, request)
    const finished = { done: false }
    socket.on("close", () => finished.done || relay.hangup())
    const end = (code: number, restore: () => void) => {
      finished.done = true
      restore()
      relay.dispose()
      state.busy = undefined
      WarmWire.send(socket, { t: "exit", code }, () => socket.end())
      if (!last) idleFromNow()
    }
    let restore: () => void
    try {
      restore = WarmIdentity.adopt(request, new Console({ stdout: raw(socket, "out"), stderr: raw(socket, "err") }))
    } catch (error) {
      relay.io.stderr(error instanceof Error ? error.message : String(error))
      end(ExitCode.TOOL_FAILED, () => undefined)
      return relay
    }
    void Cli.run(request.argv, { io: relay.io, load: (name) => commands.load(name) }).then((code) => end(code, restore))
    return relay
  }

  server.on("connection", (socket) => {
    socket.on("error", () => undefined)
    const current: { request: WarmWire.Request | undefined; relay: RelayIo.Relay | undefined } = { request: undefined, relay: undefined }
    // A caller has as long as it waits itself to ask and say `go`: a connection that stays silent
    // (a stopped caller, a stray client) would hold the offer from every other caller, and keep
    // this process from ending once it stopped waiting.
    const deadline = setTimeout(() => socket.destroy(), WarmClient.WAIT_MS)
    socket.on("close", () => {
      clearTimeout(deadline)
      if (state.offeredTo === socket) state.offeredTo = undefined
    })
    WarmWire.receive<WarmWire.ToWaiting>(socket, (message) => {
      if (current.relay !== undefined) return current.relay.dispatch(message)
      if (current.request === undefined) {
        if (message.t !== "request") return socket.destroy()
        current.request = message
        // A caller does not wait for the loading: its own start would take about as long.
        return state.commands === undefined ? refuse(socket, Messages.refused.loading) : offer(socket, message)
      }
      if (message.t !== "go" || state.offeredTo !== socket || state.commands === undefined) return socket.destroy()
      clearTimeout(deadline)
      // Synchronously: what the caller sends after `go` (a signal, input) finds the relay in place.
      current.relay = take(socket, current.request, state.commands)
    })
  })
}
