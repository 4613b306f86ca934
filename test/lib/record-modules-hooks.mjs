/** The ES module half of record-modules.cjs: records every resolved import. */
import { appendFileSync } from "node:fs"

let out = ""

export const initialize = (data) => {
  out = data.out
}

export const resolve = async (specifier, context, next) => {
  const resolved = await next(specifier, context)
  appendFileSync(out, `import ${resolved.url}\n`)
  return resolved
}
