/**
 * A library handle (`Toolgate.open`) on a fresh `work` folder in a temporary root, with an extra
 * config file holding `rules`; the database (`data`) and home in the same root, removed with the
 * test's scope.
 */
import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { Effect } from "effect"
import { Toolgate } from "../../src/toolgate.js"
import { tmpdir } from "./tmp.js"

export interface Options {
  /** Files of the work folder, by relative path. */
  readonly files?: Readonly<Record<string, string>>
  /** More of the Location's environment (a database URL). */
  readonly env?: Readonly<Record<string, string>>
}

export const openToolgate = (rules: ReadonlyArray<Readonly<Record<string, unknown>>>, options: Options = {}) =>
  Effect.gen(function* () {
    const root = yield* tmpdir
    const work = path.join(root, "work")
    const data = path.join(root, "data")
    const config = path.join(root, "extra.json")
    yield* Effect.promise(async () => {
      await mkdir(work)
      for (const [file, content] of Object.entries(options.files ?? {})) await writeFile(path.join(work, file), content)
      await writeFile(config, JSON.stringify({ permission: rules }))
    })
    const toolgate = yield* Toolgate.open({ directory: work, config, environment: { env: { TOOLGATE_DATA_DIR: data, ...options.env }, home: root } })
    return { toolgate, root, work, data }
  })
