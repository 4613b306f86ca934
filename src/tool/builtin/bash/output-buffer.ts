/**
 * The bash tool's capped output (07): bytes in arrival order, of which at most `LIMIT` stay in
 * memory (the tail). Once more than `LIMIT` bytes have arrived, every byte from the first is also
 * written, raw, to the spool file (folders created if missing, mode 0700; file created
 * exclusively, mode 0600).
 * Writes are asynchronous and in order; while more than `SPOOL_BACKLOG` bytes wait for the disk,
 * `onPressure(true)` asks the producer to pause, so memory stays bounded whatever the disk does.
 * A spool failure never loses the run: spooling stops, the partial file is removed, the tail is
 * kept, and `finish` reports a `SpoolError` next to the output. So does an output larger than
 * `SPOOL_CAP`: a runaway command cannot fill the disk; its file is removed as soon as the output
 * passes the cap, and the error's detail is `Messages.capped(cap)`.
 */
export * as BashOutputBuffer from "./output-buffer.js"

import { type FileHandle, unlink } from "node:fs/promises"
import { Effect, Schema } from "effect"
import { ToolOutputPath } from "../../../location/tool-output-path.js"

/** Bytes of output held in memory: the tail. */
export const LIMIT = 1024 * 1024
/** Bytes that may wait for the spool file before the producer is paused. */
export const SPOOL_BACKLOG = 256 * 1024
/** Mode of a new spool file: the output may hold secrets, so only the user can read it. */
export const SPOOL_MODE = 0o600
/** Bytes the spool file may hold (1 GiB). A longer output is not saved: `finish` reports a `SpoolError`. */
export const SPOOL_CAP = 1024 * 1024 * 1024

export const Messages = {
  spool: (file: string, detail: string) => `Could not save the full command output to ${file}: ${detail}`,
  /** The `detail` of the `SpoolError` for an output larger than the cap. */
  capped: (cap: number) => `the output is larger than the ${cap}-byte limit`,
} as const

export class SpoolError extends Schema.TaggedError<SpoolError>()("BashOutputBuffer.SpoolError", {
  path: Schema.String,
  detail: Schema.String,
}) {
  override get message() {
    return Messages.spool(this.path, this.detail)
  }
}

export interface Options {
  /** Absolute path of the spool file; created only once the output passes `limit`. */
  readonly spoolPath: string
  /** Defaults to `LIMIT`; smaller values are for tests. */
  readonly limit?: number
  /** Defaults to `SPOOL_CAP`; smaller values are for tests. */
  readonly spoolCap?: number
  /** Called with true when the producer should pause, with false when it may go on. */
  readonly onPressure?: (paused: boolean) => void
}

export interface Collected {
  /** The kept tail decoded as UTF-8 (invalid bytes become U+FFFD), starting on a character boundary. */
  readonly text: string
  /** Bytes that arrived in total. */
  readonly bytes: number
  /** True when more than `limit` bytes arrived, so `text` is only the tail. */
  readonly truncated: boolean
  /** The complete raw output, when it was truncated and the spool file was written in full. */
  readonly outputPath?: string
  readonly spoolError?: SpoolError
}

export interface Sink {
  /** Takes the next chunk in arrival order. Never throws. */
  readonly write: (chunk: Uint8Array) => void
  /** Waits for the spool file to be complete and closed; then the output. Call once, after the last write. */
  readonly finish: Effect.Effect<Collected>
  /** Stops spooling and removes the spool file (nobody will learn its path). */
  readonly abort: Effect.Effect<void>
}

const isContinuation = (byte: number | undefined) => byte !== undefined && (byte & 0b1100_0000) === 0b1000_0000

/**
 * Where the text of a tail starts: past at most three leading UTF-8 continuation bytes, which
 * belong to a character whose first byte was dropped.
 * @example characterStart(Buffer.from([0x80, 0x41])) // 1
 */
export const characterStart = (bytes: Uint8Array): number => {
  const skip = [0, 1, 2, 3].find((at) => !isContinuation(bytes[at]))
  return skip ?? 0
}

const errorDetail = (cause: unknown) => (cause as NodeJS.ErrnoException).code ?? String(cause)

/** One `write` may write less than asked; keep going until the chunk is on disk. */
const writeAll = async (handle: FileHandle, bytes: Uint8Array) => {
  for (let offset = 0; offset < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset)
    if (bytesWritten === 0) throw Object.assign(new Error("no bytes written"), { code: "EIO" })
    offset += bytesWritten
  }
}

/**
 * A new, empty sink.
 * @example const sink = BashOutputBuffer.make({ spoolPath: "/data/tool-output/shell_01", onPressure })
 */
export const make = (options: Options): Sink => {
  const limit = options.limit ?? LIMIT
  const cap = options.spoolCap ?? SPOOL_CAP
  const tail: Array<Uint8Array> = []
  const state = {
    held: 0,
    total: 0,
    /** Bytes handed to the spool file. */
    spooled: 0,
    /** The spool's write chain; undefined until the output passes the limit. */
    queue: undefined as Promise<void> | undefined,
    handle: undefined as FileHandle | undefined,
    /** True once this sink created the spool file: only then may it remove it. */
    created: false,
    backlog: 0,
    paused: false,
    error: undefined as SpoolError | undefined,
    aborted: false,
  }

  const pressure = (paused: boolean) => {
    if (state.paused === paused) return
    state.paused = paused
    options.onPressure?.(paused)
  }

  const fail = (cause: unknown) => {
    if (state.error === undefined && !state.aborted) state.error = new SpoolError({ path: options.spoolPath, detail: errorDetail(cause) })
    pressure(false)
  }

  /** Past the cap: no more writes, and the file goes at once (the queue skips what waits). */
  const capSpool = () => {
    state.error = new SpoolError({ path: options.spoolPath, detail: Messages.capped(cap) })
    pressure(false)
    state.queue = (state.queue ?? Promise.resolve()).then(async () => {
      const handle = state.handle
      state.handle = undefined
      await handle?.close().catch(() => undefined)
      if (!state.created) return
      state.created = false
      await unlink(options.spoolPath).catch(() => undefined)
    })
  }

  const spool = (chunk: Uint8Array) => {
    if (state.error !== undefined || state.aborted) return
    if (state.spooled + chunk.length > cap) return capSpool()
    state.spooled += chunk.length
    state.backlog += chunk.length
    if (state.backlog > SPOOL_BACKLOG) pressure(true)
    state.queue = (state.queue ?? Promise.resolve())
      .then(async () => {
        if (state.error !== undefined || state.aborted || state.handle === undefined) return
        await writeAll(state.handle, chunk)
      })
      .catch(fail)
      .finally(() => {
        state.backlog -= chunk.length
        if (state.backlog <= SPOOL_BACKLOG / 2) pressure(false)
      })
  }

  const startSpool = () => {
    state.queue = (async () => {
      state.handle = await ToolOutputPath.create(options.spoolPath, SPOOL_MODE)
      state.created = true
    })().catch(fail)
    // Nothing was dropped yet, so the held chunks are the whole output so far.
    tail.forEach(spool)
  }

  const trim = () => {
    while (state.held > limit && tail.length > 0 && state.held - (tail[0]?.length ?? 0) >= limit) {
      state.held -= tail.shift()?.length ?? 0
    }
    const first = tail[0]
    if (first === undefined || state.held <= limit) return
    tail[0] = first.subarray(state.held - limit)
    state.held = limit
  }

  const write = (chunk: Uint8Array) => {
    if (chunk.length === 0 || state.aborted) return
    const crossing = state.total <= limit && state.total + chunk.length > limit
    state.total += chunk.length
    state.held += chunk.length
    tail.push(chunk)
    if (crossing) startSpool()
    if (!crossing && state.queue !== undefined) spool(chunk)
    trim()
  }

  /** Closes the spool file; when anything failed (or the sink is aborted), removes it if this sink created it. */
  const close = async () => {
    await state.queue
    const handle = state.handle
    state.handle = undefined
    await handle?.close().catch(fail)
    if (state.created && (state.error !== undefined || state.aborted)) {
      state.created = false
      await unlink(options.spoolPath).catch(() => undefined)
    }
  }

  const finish = Effect.promise(async (): Promise<Collected> => {
    await close()
    const bytes = Buffer.concat(tail)
    const truncated = state.total > limit
    const text = bytes.subarray(truncated ? characterStart(bytes) : 0).toString("utf8")
    const error = state.error
    if (!truncated) return { text, bytes: state.total, truncated }
    if (error !== undefined) return { text, bytes: state.total, truncated, spoolError: error }
    return { text, bytes: state.total, truncated, outputPath: options.spoolPath }
  })

  const abort = Effect.promise(async () => {
    state.aborted = true
    pressure(false)
    await close()
  })

  return { write, finish, abort }
}
