/**
 * Preloaded with `node --require` by test/cli/startup.test.ts: appends to the file named by
 * TOOLGATE_RECORD_MODULES one line per module the process loads (`require <file>`, `import <url>`)
 * and per script it compiles (`compile <file>`, how cli/bundle.ts runs the bundle), so a test
 * can see exactly what a command loaded.
 */
const { appendFileSync } = require("node:fs")
const Module = require("node:module")
const { pathToFileURL } = require("node:url")
const vm = require("node:vm")

const out = process.env.TOOLGATE_RECORD_MODULES
const record = (kind, id) => appendFileSync(out, `${kind} ${id}\n`)

const load = Module._load
Module._load = function (request, parent, isMain) {
  try {
    record("require", Module._resolveFilename(request, parent, isMain))
  } catch {
    record("require", request)
  }
  return load.apply(this, arguments)
}

const Script = vm.Script
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options)
    record("compile", typeof options === "string" ? options : options?.filename)
  }
}

Module.register(pathToFileURL(`${__dirname}/record-modules-hooks.mjs`), { data: { out } })
