import { spawnSync } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { McpReservation } from "../../src/mcp/reservation.js"

const folders: Array<string> = []
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })))
})
const folder = async () => {
  const made = await mkdtemp(path.join(os.tmpdir(), "toolgate-reservation-"))
  folders.push(made)
  return made
}

/** A pid that is certainly not running: a child that already exited. */
const exitedPid = () => spawnSync(process.execPath, ["-e", "0"]).pid as number

describe("McpReservation", () => {
  it("lets a process take over the session of a probe that exited without serving a call", async () => {
    const dir = await folder()
    const options = { folder: dir, directory: "/repo", agent: "build", parent: 4242 }
    const probe = McpReservation.make(options)
    expect(probe.adopted).toBeUndefined()
    probe.record("ses_probe")
    // Pretend the writer exited: rewrite the reservation with a dead pid.
    const { writeFileSync, readdirSync } = await import("node:fs")
    const [file] = readdirSync(dir)
    writeFileSync(path.join(dir, file as string), JSON.stringify({ session: "ses_probe", pid: exitedPid(), at: Date.now() }))
    expect(McpReservation.make(options).adopted).toBe("ses_probe")
    // Taken once: the next process gets a new session.
    expect(McpReservation.make(options).adopted).toBeUndefined()
  })

  it("does not take over a session whose process is alive, or served a call, or is old, or is another's", async () => {
    const dir = await folder()
    const options = { folder: dir, directory: "/repo", agent: "build", parent: 4242 }
    const { writeFileSync, readdirSync } = await import("node:fs")
    const live = McpReservation.make(options)
    live.record("ses_live")
    expect(McpReservation.make(options).adopted).toBeUndefined()
    live.withdraw()
    expect(readdirSync(dir)).toEqual([])
    const served = McpReservation.make(options)
    served.record("ses_served")
    const [file] = readdirSync(dir)
    writeFileSync(path.join(dir, file as string), JSON.stringify({ session: "ses_old", pid: exitedPid(), at: Date.now() - McpReservation.MAX_AGE_MS - 1 }))
    expect(McpReservation.make(options).adopted).toBeUndefined()
    writeFileSync(path.join(dir, file as string), JSON.stringify({ session: "ses_other", pid: exitedPid(), at: Date.now() }))
    expect(McpReservation.make({ ...options, directory: "/other" }).adopted).toBeUndefined()
    expect(McpReservation.make({ ...options, agent: "plan" }).adopted).toBeUndefined()
    expect(McpReservation.make({ ...options, parent: 4343 }).adopted).toBeUndefined()
    expect(McpReservation.make(options).adopted).toBe("ses_other")
  })
})
