/**
 * `Config.load` with `skipBroken` (the CLI's recovery commands): a broken file is left out and
 * listed in `sources` as ignored with the very message a strict load fails with; every other
 * file is read as usual. Without it the same files fail the load.
 */
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Config } from "../src/config.js"
import { tmpdir } from "./lib/tmp.js"

const { ConfigError } = Config

interface Layout {
  readonly global?: string
  readonly project?: string
  /** Written only when given; named by `--config` either way when `explicit` is true. */
  readonly explicitText?: string
  readonly explicit?: boolean
}

/** Writes the files into a fresh home and Location and loads them, strictly and skipping broken files. */
const load = (layout: Layout) =>
  Effect.gen(function* () {
    const root = yield* tmpdir
    const home = path.join(root, "home")
    const location = path.join(root, "project")
    const files = { global: path.join(home, ".config", "toolgate", "toolgate.json"), project: path.join(location, "toolgate.json"), explicit: path.join(root, "explicit.json") }
    yield* Effect.promise(async () => {
      await mkdir(location, { recursive: true })
      const texts: ReadonlyArray<readonly [string, string | undefined]> = [[files.global, layout.global], [files.project, layout.project], [files.explicit, layout.explicitText]]
      for (const [file, text] of texts) {
        if (text === undefined) continue
        await mkdir(path.dirname(file), { recursive: true })
        await writeFile(file, text)
      }
    })
    const options = { location, environment: { env: {}, home }, ...(layout.explicit === true ? { explicit: files.explicit } : {}) }
    const strict = yield* Config.load(options).pipe(Effect.flip)
    const skipped = yield* Config.load({ ...options, skipBroken: true })
    return { strict, info: skipped, files, hidden: path.join(location, ".toolgate", "toolgate.json") }
  })

describe("Config.load with skipBroken", () => {
  it.live("leaves a broken project file out, with the error a strict load fails with, and keeps the global file", () =>
    Effect.gen(function* () {
      const { strict, info, files } = yield* load({ global: '{ "tool_output": { "max_lines": 5 } }', project: '{ "toolz": {} }' })
      expect(strict.message).toBe(ConfigError.Messages.unknownKey("toolz", files.project, "tools"))
      expect(info.sources).toEqual([
        { file: files.global, scope: "global", state: "found" },
        { file: files.project, scope: "project", state: "ignored", error: strict.message },
      ])
      expect(info.files.map((file) => file.path)).toEqual([files.global])
      expect(info.tool_output).toEqual({ max_lines: 5 })
    }))

  it.live("leaves out a global file with a syntax error and an explicit file that does not exist", () =>
    Effect.gen(function* () {
      const { strict, info, files, hidden } = yield* load({ global: '{ "tool_output": ', explicit: true })
      expect(strict._tag).toBe("Config.SyntaxError")
      expect(info.sources).toEqual([
        { file: files.global, scope: "global", state: "ignored", error: strict.message },
        { file: hidden, scope: "project", state: "absent" },
        { file: files.explicit, scope: "explicit", state: "ignored", error: ConfigError.Messages.unreadable(files.explicit, "ENOENT") },
      ])
      expect(info.files).toEqual([])
    }))

  it.live("leaves out a file whose default_agent names an agent only a broken file defined", () =>
    Effect.gen(function* () {
      const { strict, info, files } = yield* load({
        project: '{ "agent": { "review": {} }, "toolz": {} }',
        explicit: true,
        explicitText: '{ "default_agent": "review", "tools": { "bash": false } }',
      })
      expect(strict.message).toBe(ConfigError.Messages.unknownKey("toolz", files.project, "tools"))
      expect(info.sources).toEqual([
        { file: files.global, scope: "global", state: "absent" },
        { file: files.project, scope: "project", state: "ignored", error: strict.message },
        { file: files.explicit, scope: "explicit", state: "ignored", error: ConfigError.Messages.unknownAgent("review", files.explicit) },
      ])
      expect([info.files, info.default_agent, info.tools]).toEqual([[], Config.DEFAULT_AGENT, {}])
    }))
})
