/**
 * Which session a `toolgate mcp` process serves. Normally a new one per process (one connection,
 * one session). But a client may probe with a short-lived sibling process first (the TypeScript
 * SDK's own stdio transport does, for `server/discover` in the 2026-07-28 era) and keep that
 * sibling's instructions, which name the sibling's session. So each process leaves a reservation
 * (`<data>/mcp-reservations/<key>`, the key hashing the parent pid, the real directory and the
 * agent) with its session id and pid; a process started by the same parent for the same
 * directory and agent, within a minute, whose reservation's writer has exited without serving a
 * call, takes that session over. A process withdraws its reservation at its first real request,
 * so a later connection never continues a session that served one.
 */
export * as McpReservation from "./reservation.js"

import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"

/** How long a probe's reservation can be taken over. */
export const MAX_AGE_MS = 60_000

export interface Reservation {
  /** The session id this process should use, or undefined for a new one. */
  readonly adopted: string | undefined
  /** Records the session this process serves, for a real process that may follow a probe. */
  readonly record: (sessionID: string) => void
  /** Withdraws this process's reservation: it serves real requests now. */
  readonly withdraw: () => void
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

interface Stored {
  readonly session: string
  readonly pid: number
  readonly at: number
}

const readStored = (file: string): Stored | undefined => {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as Partial<Stored>
    return typeof value.session === "string" && typeof value.pid === "number" && typeof value.at === "number" ? (value as Stored) : undefined
  } catch {
    return undefined
  }
}

export const make = (options: { readonly folder: string; readonly directory: string; readonly agent: string; readonly now?: number; readonly parent?: number }): Reservation => {
  const now = options.now ?? Date.now()
  const key = createHash("sha256").update(`${options.parent ?? process.ppid}\0${options.directory}\0${options.agent}`).digest("hex").slice(0, 32)
  const file = path.join(options.folder, key)
  const stored = readStored(file)
  const adoptable = stored !== undefined && now - stored.at < MAX_AGE_MS && stored.pid !== process.pid && !alive(stored.pid)
  if (adoptable) rmSync(file, { force: true })
  let mine = false
  return {
    adopted: adoptable ? stored.session : undefined,
    record: (sessionID) => {
      try {
        mkdirSync(options.folder, { recursive: true, mode: 0o700 })
        writeFileSync(file, JSON.stringify({ session: sessionID, pid: process.pid, at: now }), { mode: 0o600 })
        mine = true
      } catch {
        // Best effort: without it a probing client only names another session in its instructions.
      }
    },
    withdraw: () => {
      if (!mine) return
      mine = false
      if (readStored(file)?.pid === process.pid) rmSync(file, { force: true })
    },
  }
}
