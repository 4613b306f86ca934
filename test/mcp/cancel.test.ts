/**
 * A call the client gives up on stops: cancelling it (the request's AbortSignal, sent as
 * `notifications/cancelled`) kills the command it runs, and the connection goes on; closing the
 * connection (standard input ends) while a call runs ends the server and kills the command too.
 */
import { existsSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { call, connect, ERAS, eventually, rawInitialize, sandbox, sleeping, spawnRaw, textOf } from "../lib/mcp-client.js"
import { alive } from "../lib/process-group.js"


describe("cancelling over MCP", () => {
  for (const [era, seconds] of [
    ["legacy", "31.4159"],
    ["modern", "31.41592"],
  ] as const) {
    it(`${era} era: a cancelled bash call kills its process, and the connection still serves`, async () => {
      const box = await sandbox({ files: { "a.txt": "still here\n" } })
      try {
        const connection = await connect(box, { era })
        try {
          expect(await sleeping(seconds)).toEqual([])
          const controller = new AbortController()
          const running = call(connection, "bash", { command: `sleep ${seconds}`, description: "wait" }, { signal: controller.signal })
          running.catch(() => undefined)
          expect(await eventually(async () => (await sleeping(seconds)).length === 1, 20_000)).toBe(true)
          controller.abort("the person pressed stop")
          await expect(running).rejects.toThrow()
          expect(await eventually(async () => (await sleeping(seconds)).length === 0, 5_000)).toBe(true)
          const after = await call(connection, "read", { path: "a.txt" })
          expect(after.isError).not.toBe(true)
          expect(textOf(after)).toContain("1: still here")
        } finally {
          await connection.close()
        }
      } finally {
        await box.dispose()
      }
    }, 60_000)
  }

  for (const era of ERAS) {
    it(`${era} era: a call cancelled while its form is shown does not run when the form is answered late`, async () => {
      const box = await sandbox({ config: { permission: [{ action: "bash", resource: "*", effect: "ask" }] }, files: { "a.txt": "still here\n" } })
      try {
        type Answer = (value: { action: "accept"; content: { decision: string } }) => void
        const form: { answer?: Answer | undefined } = {}
        /** The form now shown, if any (read fresh: the handler sets it). */
        const shown = (): Answer | undefined => form.answer
        const connection = await connect(box, { era, elicit: () => new Promise((resolve) => (form.answer = resolve)) })
        try {
          const controller = new AbortController()
          const running = call(connection, "bash", { command: "touch late.txt", description: "make a file" }, { signal: controller.signal })
          running.catch(() => undefined)
          expect(await eventually(() => shown() !== undefined, 20_000)).toBe(true)
          controller.abort("the person pressed stop")
          // The form is answered after the cancel (a 2026-07-28 SDK client settles the cancelled
          // call only once its form handler returns, so the answer comes first here).
          shown()?.({ action: "accept", content: { decision: "once" } })
          await expect(running).rejects.toThrow()
          // A later call still asks (nothing was saved) and runs; the cancelled one never ran.
          form.answer = undefined
          const next = call(connection, "bash", { command: "touch next.txt", description: "make another file" })
          expect(await eventually(() => shown() !== undefined, 20_000)).toBe(true)
          shown()?.({ action: "accept", content: { decision: "once" } })
          const result = await next
          expect(result.isError).not.toBe(true)
          expect(existsSync(path.join(box.work, "next.txt"))).toBe(true)
          expect(existsSync(path.join(box.work, "late.txt"))).toBe(false)
          expect(connection.elicitations).toHaveLength(2)
        } finally {
          await connection.close()
        }
      } finally {
        await box.dispose()
      }
    }, 60_000)
  }

  it("closing standard input while a call runs ends the server (exit 0) and kills the command", async () => {
    const box = await sandbox()
    const seconds = "31.41593"
    try {
      const raw = spawnRaw(box)
      await rawInitialize(raw)
      const answered = raw.request("tools/call", { name: "bash", arguments: { command: `sleep ${seconds}`, description: "wait" } })
      expect(await eventually(async () => (await sleeping(seconds)).length === 1, 20_000)).toBe(true)
      raw.child.stdin.end()
      const exit = await Promise.race([raw.exited, new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 15_000))])
      if (exit === "still running") raw.child.kill("SIGKILL")
      expect(exit).toEqual({ code: 0, signal: null })
      expect(await eventually(async () => (await sleeping(seconds)).length === 0, 5_000)).toBe(true)
      // Whatever it still wrote is JSON-RPC; the call itself may or may not have been answered.
      void answered
      for (const line of raw.lines) expect(JSON.parse(line), line).toMatchObject({ jsonrpc: "2.0" })
    } finally {
      await box.dispose()
    }
  }, 60_000)

  for (const [era, seconds] of ERAS.map((era, index) => [era, `31.4159${4 + index}`] as const)) {
    it(`${era} era: closing the SDK client while a call runs ends the server and kills the command`, async () => {
      const box = await sandbox()
      try {
        const connection = await connect(box, { era })
        const pid = connection.transport.pid
        expect(pid).not.toBeNull()
        const running = call(connection, "bash", { command: `sleep ${seconds}`, description: "wait" })
        running.catch(() => undefined)
        expect(await eventually(async () => (await sleeping(seconds)).length === 1, 20_000)).toBe(true)
        await connection.close()
        await expect(running).rejects.toThrow()
        expect(await eventually(() => !alive(pid as number), 10_000)).toBe(true)
        expect(await eventually(async () => (await sleeping(seconds)).length === 0, 5_000)).toBe(true)
      } finally {
        await box.dispose()
      }
    }, 60_000)
  }
})
