/**
 * Asks over MCP, end to end, in both protocol eras: a `read` outside the working directory asks
 * `external_directory`, and the form the client shows decides it (once, session, always, reject
 * with feedback, decline, cancel). A configured deny never asks; a client without elicitation is
 * answered by `mcp.on_ask`.
 */
import { existsSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { call, connect, decide, ERAS, type Sandbox, sandbox, textOf, toolgate, withConnection } from "../lib/mcp-client.js"

const STOPPED = "The person stopped the agent: do not retry this call or work around it; wait for their instructions."

/** A sandbox with a file outside its working directory; reading it asks `external_directory` on `<dir>/*`. */
const outside = async (config?: unknown) => {
  const box = await sandbox(config === undefined ? {} : { config })
  const dir = path.join(box.root, "outside")
  await mkdir(dir)
  const file = path.join(dir, "note.txt")
  await writeFile(file, "outside note\n")
  return { box, file, pattern: `${dir}/*` }
}

const using = async (setup: Promise<{ box: Sandbox; file: string; pattern: string }>, body: (env: { box: Sandbox; file: string; pattern: string }) => Promise<void>) => {
  const env = await setup
  try {
    await body(env)
  } finally {
    await env.box.dispose()
  }
}

describe("asks through elicitation", () => {
  for (const era of ERAS) {
    describe(`${era} era`, () => {
      it("allowed once: the read runs, and the same call asks again", () =>
        using(outside(), async ({ box, file, pattern }) => {
          await withConnection(box, { era, elicit: decide("once") }, async (connection) => {
            const first = await call(connection, "read", { path: file })
            expect(first.isError).not.toBe(true)
            expect(textOf(first)).toContain("1: outside note")
            expect(connection.elicitations).toHaveLength(1)
            const [form] = connection.elicitations
            expect(form?.message.split("\n")[0]).toBe(`toolgate: the read tool asks for external_directory on ${pattern}`)
            expect(form?.message).toContain(`"Always allow" would always allow external_directory on anything matching ${pattern} in this project.`)
            expect(form?.requestedSchema).toMatchObject({
              type: "object",
              properties: {
                decision: {
                  type: "string",
                  oneOf: [
                    { const: "once", title: "Allow once" },
                    { const: "session", title: "Allow for this session" },
                    { const: "always", title: `Always allow: ${pattern}` },
                    { const: "reject", title: "Reject" },
                  ],
                },
                feedback: { type: "string" },
              },
              required: ["decision"],
            })
            const second = await call(connection, "read", { path: file })
            expect(second.isError).not.toBe(true)
            expect(connection.elicitations).toHaveLength(2)
          })
        }), 60_000)

      it("allowed for the session: the connection asks no more, a new connection asks again", () =>
        using(outside(), async ({ box, file }) => {
          await withConnection(box, { era, elicit: decide("session") }, async (connection) => {
            expect((await call(connection, "read", { path: file })).isError).not.toBe(true)
            expect((await call(connection, "read", { path: file })).isError).not.toBe(true)
            expect(connection.elicitations).toHaveLength(1)
          })
          await withConnection(box, { era, elicit: decide("once") }, async (connection) => {
            expect((await call(connection, "read", { path: file })).isError).not.toBe(true)
            expect(connection.elicitations).toHaveLength(1)
          })
        }), 60_000)

      it("always allowed: a new connection does not ask, and `toolgate approvals list` shows it", () =>
        using(outside(), async ({ box, file, pattern }) => {
          await withConnection(box, { era, elicit: decide("always") }, async (connection) => {
            expect((await call(connection, "read", { path: file })).isError).not.toBe(true)
            expect(connection.elicitations).toHaveLength(1)
          })
          await withConnection(box, { era, elicit: decide("reject") }, async (connection) => {
            const result = await call(connection, "read", { path: file })
            expect(result.isError).not.toBe(true)
            expect(textOf(result)).toContain("1: outside note")
            expect(connection.elicitations).toEqual([])
          })
          const listed = await toolgate(box, ["approvals", "list", "--dir", box.work])
          expect(listed.code).toBe(0)
          expect(listed.stdout).toContain(`external_directory  ${pattern}`)
        }), 60_000)

      it("rejected with feedback: an error the model reads with the feedback", () =>
        using(outside(), async ({ box, file }) => {
          await withConnection(box, { era, elicit: decide("reject", "read the copy in the working directory instead") }, async (connection) => {
            const result = await call(connection, "read", { path: file })
            expect(result.isError).toBe(true)
            expect(textOf(result)).toBe("The user rejected this call with feedback: read the copy in the working directory instead")
            expect(connection.elicitations).toHaveLength(1)
          })
        }), 60_000)

      it("rejected without feedback, declined or cancelled: an error saying the person stopped the agent", () =>
        using(outside(), async ({ box, file }) => {
          const answers = [decide("reject"), () => ({ action: "decline" }) as const, () => ({ action: "cancel" }) as const]
          for (const answer of answers) {
            await withConnection(box, { era, elicit: answer }, async (connection) => {
              const result = await call(connection, "read", { path: file })
              expect(result.isError).toBe(true)
              expect(textOf(result)).toBe(`Permission declined by the user: external_directory\n${STOPPED}`)
              expect(connection.elicitations).toHaveLength(1)
            })
          }
        }), 90_000)

      it("shows the command and description of a bash call that asks, and runs it once allowed", async () => {
        const box = await sandbox({ config: { permission: [{ action: "bash", resource: "*", effect: "ask" }] } })
        try {
          await withConnection(box, { era, elicit: decide("once") }, async (connection) => {
            const result = await call(connection, "bash", { command: "echo made > made.txt", description: "make a file" })
            expect(result.isError).not.toBe(true)
            expect(existsSync(path.join(box.work, "made.txt"))).toBe(true)
            expect(connection.elicitations).toHaveLength(1)
            const lines = connection.elicitations[0]?.message.split("\n") ?? []
            expect(lines[0]).toMatch(/^toolgate: the bash tool asks for bash on /)
            expect(lines).toContain("Command: echo made > made.txt")
            expect(lines).toContain("Description: make a file")
          })
        } finally {
          await box.dispose()
        }
      }, 60_000)

      it("a configured deny is an error without any form", async () => {
        const box = await sandbox({ config: { permission: [{ action: "bash", resource: "rm *", effect: "deny" }] }, files: { "keep.txt": "keep\n" } })
        try {
          await withConnection(box, { era, elicit: decide("once") }, async (connection) => {
            const result = await call(connection, "bash", { command: "rm -f keep.txt", description: "remove a file" })
            expect(result.isError).toBe(true)
            expect(textOf(result)).toBe("Permission denied: bash")
            expect(connection.elicitations).toEqual([])
            expect(existsSync(path.join(box.work, "keep.txt"))).toBe(true)
          })
        } finally {
          await box.dispose()
        }
      }, 60_000)

      it("a client without elicitation is refused by on_ask reject (the default), with the rule that would allow it", () =>
        using(outside(), async ({ box, file, pattern }) => {
          await withConnection(box, { era, elicit: false }, async (connection) => {
            const result = await call(connection, "read", { path: file })
            expect(result.isError).toBe(true)
            const text = textOf(result)
            expect(text.startsWith(`The user rejected this call with feedback: toolgate needed a person to approve external_directory on ${pattern}`)).toBe(true)
            expect(text).toContain(`{ "action": "external_directory", "resource": ${JSON.stringify(pattern)}, "effect": "allow" }`)
            // Nothing was left waiting: the next call is answered the same way.
            const again = await call(connection, "read", { path: file })
            expect(textOf(again)).toBe(text)
          })
        }), 60_000)

      it("a client without elicitation is denied under on_ask deny", () =>
        using(outside({ mcp: { on_ask: "deny" } }), async ({ box, file }) => {
          await withConnection(box, { era, elicit: false }, async (connection) => {
            const result = await call(connection, "read", { path: file })
            expect(result.isError).toBe(true)
            expect(textOf(result)).toBe("Permission denied: external_directory")
          })
        }), 60_000)

      it("a client without elicitation still runs what needs no ask", async () => {
        const box = await sandbox({ files: { "a.txt": "inside\n" } })
        try {
          const connection = await connect(box, { era, elicit: false })
          try {
            const result = await call(connection, "read", { path: "a.txt" })
            expect(result.isError).not.toBe(true)
            expect(textOf(result)).toContain("1: inside")
          } finally {
            await connection.close()
          }
        } finally {
          await box.dispose()
        }
      }, 60_000)
    })
  }
})
