/**
 * Output over the limits, end to end: a bash command printing 10 MB returns bounded text, the
 * structured output is bounded the same way, and `_meta` names the saved full output.
 */
import { existsSync } from "node:fs"
import { readFile, stat } from "node:fs/promises"
import { describe, expect, it } from "vitest"
import { call, ERAS, sandbox, textOf, withConnection } from "../lib/mcp-client.js"

const TEN_MB = 10_000_000
/** 10 MB of `a`, in lines of 100: 100 000 lines. */
const COMMAND = `head -c ${TEN_MB} /dev/zero | tr '\\0' 'a' | fold -w 100`

describe("large output over MCP", () => {
  for (const era of ERAS) {
    it(`${era} era: a 10 MB bash output is bounded in content and structuredContent, and saved in full`, async () => {
      const box = await sandbox()
      try {
        await withConnection(box, { era }, async (connection) => {
          const result = await call(connection, "bash", { command: COMMAND, description: "print 10 MB" })
          expect(result.isError).not.toBe(true)
          const text = textOf(result)
          expect(text.length).toBeGreaterThan(0)
          expect(text.length).toBeLessThan(100_000)
          expect(text).toContain("a".repeat(100))

          const saved = result._meta?.["toolgate/outputPath"]
          expect(typeof saved).toBe("string")
          expect(result._meta?.["toolgate/outputPaths"]).toEqual(expect.arrayContaining([saved]))
          expect(existsSync(saved as string)).toBe(true)
          // The model is told where the full output is.
          expect(text).toContain(saved as string)
          const full = await readFile(saved as string, "utf8")
          expect((await stat(saved as string)).size).toBeGreaterThanOrEqual(TEN_MB)
          expect(full.split("\n").filter((line) => line === "a".repeat(100))).toHaveLength(TEN_MB / 100)

          // bash's output schema has an object root, so neither era wraps it in `result`.
          const structured = result.structuredContent as Record<string, unknown>
          expect(structured).toMatchObject({ exit: 0, timedOut: false })
          expect(typeof structured.output).toBe("string")
          expect((structured.output as string).length).toBeLessThan(100_000)
          expect(structured.output).toContain(saved as string)
          expect(JSON.stringify(result).length).toBeLessThan(300_000)
        })
      } finally {
        await box.dispose()
      }
    }, 90_000)
  }
})
