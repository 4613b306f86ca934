/** Config built in memory for tests: one global file with the given body, validated as a real file is. */
import { Config } from "../../src/config.js"

export const globalFile = (body: unknown) => {
  const file = Config.ConfigValidate.file("/global/toolgate.json", "global", body)
  // A test's own config that does not validate is a broken test, not a case to handle.
  if (file instanceof Error) throw file
  return file
}

export const globalConfig = (body: unknown): Config.Info => Config.merge([globalFile(body)])
