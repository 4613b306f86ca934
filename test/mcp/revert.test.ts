/**
 * An MCP-driven session is reverted by the CLI: each call is its own message (named in the
 * result's `_meta`), `toolgate session diff` shows what the session changed, and
 * `toolgate session revert <session> <message>` puts the files back as they were before it.
 */
import { existsSync } from "node:fs"
import { readFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { call, ERAS, messageOf, type Sandbox, sandbox, sessionOf, textOf, toolgate, withConnection } from "../lib/mcp-client.js"

const ORIGINAL = "first line\nsecond line\n"

/** Writes new.txt, edits old.txt, then has bash create shell.txt: three calls, three messages. */
const change = (box: Sandbox, era: (typeof ERAS)[number]) =>
  withConnection(box, { era }, async (connection) => {
    const wrote = await call(connection, "write", { path: "new.txt", content: "brand new\n" })
    expect(wrote.isError, textOf(wrote)).not.toBe(true)
    const edited = await call(connection, "edit", { path: "old.txt", oldString: "second line", newString: "changed line" })
    expect(edited.isError, textOf(edited)).not.toBe(true)
    const shell = await call(connection, "bash", { command: "printf 'from the shell\\n' > shell.txt", description: "write a file" })
    expect(shell.isError, textOf(shell)).not.toBe(true)
    const results = [wrote, edited, shell]
    const session = sessionOf(wrote)
    expect(session).toMatch(/^ses_/)
    for (const result of results) expect(sessionOf(result)).toBe(session)
    const messages = results.map(messageOf)
    for (const message of messages) expect(message).toMatch(/^msg_/)
    expect(new Set(messages).size).toBe(3)
    return { session: session as string, messages: messages as [string, string, string] }
  })

const read = (box: Sandbox, name: string) => readFile(path.join(box.work, name), "utf8")

describe("reverting an MCP-driven session", () => {
  for (const era of ERAS) {
    it(`${era} era: session diff lists the changes, and revert to the first call's message undoes them all`, async () => {
      const box = await sandbox({ files: { "old.txt": ORIGINAL } })
      try {
        const { session, messages } = await change(box, era)
        expect(await read(box, "new.txt")).toBe("brand new\n")
        expect(await read(box, "old.txt")).toBe("first line\nchanged line\n")
        expect(await read(box, "shell.txt")).toBe("from the shell\n")

        const diff = await toolgate(box, ["session", "diff", session, "--dir", box.work])
        expect(diff.code, diff.stderr).toBe(0)
        const summary = diff.stdout.split("\n").filter((line) => /^[AMD] /.test(line))
        expect(summary).toEqual(expect.arrayContaining(["A new.txt (+1 -0)", "M old.txt (+1 -1)", "A shell.txt (+1 -0)"]))
        expect(diff.stdout).toContain("+changed line")
        expect(diff.stdout).toContain("-second line")

        const reverted = await toolgate(box, ["session", "revert", session, messages[0], "--dir", box.work])
        expect(reverted.code, reverted.stderr).toBe(0)
        expect(reverted.stdout.split("\n")[0]).toBe(`Reverted session ${session} to before message ${messages[0]}:`)
        expect(existsSync(path.join(box.work, "new.txt"))).toBe(false)
        expect(existsSync(path.join(box.work, "shell.txt"))).toBe(false)
        expect(await read(box, "old.txt")).toBe(ORIGINAL)
      } finally {
        await box.dispose()
      }
    }, 60_000)
  }

  for (const era of ERAS) {
    it(`${era} era: the revert command the server's instructions give reverts the connection's changes`, async () => {
      const box = await sandbox({ files: { "old.txt": ORIGINAL } })
      try {
        const { instructions, message } = await withConnection(box, { era }, async (connection) => {
          const edited = await call(connection, "edit", { path: "old.txt", oldString: "second line", newString: "changed line" })
          expect(edited.isError, textOf(edited)).not.toBe(true)
          return { instructions: connection.instructions, message: messageOf(edited) as string }
        })
        const command = /`toolgate session revert (ses_\w+) <message>`/.exec(instructions)
        expect(command, instructions).not.toBeNull()
        const reverted = await toolgate(box, ["session", "revert", command?.[1] as string, message, "--dir", box.work])
        expect(reverted.stdout.split("\n")[0], reverted.stdout + reverted.stderr).toBe(`Reverted session ${command?.[1]} to before message ${message}:`)
        expect(await read(box, "old.txt")).toBe(ORIGINAL)
      } finally {
        await box.dispose()
      }
    }, 60_000)
  }

  it("revert to the second call's message keeps what the first call did", async () => {
    const box = await sandbox({ files: { "old.txt": ORIGINAL } })
    try {
      const { session, messages } = await change(box, "legacy")
      const reverted = await toolgate(box, ["session", "revert", session, messages[1], "--dir", box.work])
      expect(reverted.code, reverted.stderr).toBe(0)
      expect(await read(box, "new.txt")).toBe("brand new\n")
      expect(await read(box, "old.txt")).toBe(ORIGINAL)
      expect(existsSync(path.join(box.work, "shell.txt"))).toBe(false)
    } finally {
      await box.dispose()
    }
  }, 60_000)
})
