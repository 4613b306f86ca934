/**
 * Bundles the CLI (run by `npm run build` after tsc), for cli/bundle.ts to compile with a V8 code
 * cache:
 * - `dist/cli/commands.cjs`: every command (src/cli/commands.ts); their dynamic imports become
 *   parts of the one file that run only when reached.
 * - `dist/cli/mcp-server.cjs`, `dist/cli/mcp-client.cjs`: the MCP SDK, apart, so the commands
 *   that never speak MCP do not read and compile it. It holds no state of ours, so a copy of its
 *   own is safe; the check below proves it exports every name its packages export.
 * - `dist/cli/html-worker.js`: webfetch's worker, where the bundle looks for it.
 * - `dist/cli/bin.cjs`: the executable, with help, specs and the loader in one file (CommonJS).
 * - `dist/cli/warm.cjs`: the waiting process that runs a command with its code loaded (cli/warm/).
 * Native and wasm packages stay outside and load from node_modules (better-sqlite3 is bundled but
 * for its addon). Each CommonJS file is already the function CommonJS wraps a module in, is ASCII
 * (read as latin1), and has its SHA-256 beside it in `<file>.sha256` (the key of its cache).
 */
import { createHash } from "node:crypto"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const out = path.join(root, "dist", "cli")

/** Loaded at run time from node_modules: native addons, wasm, and what the worker loads. */
// The AI SDK too: only `toolgate run` loads it, and bundled it would grow the file every start reads;
// and `pg`, which only a process on PostgreSQL loads. better-sqlite3's JavaScript is bundled (a dozen
// files the CommonJS loader would find and compile on every start); its addon loads by path
// (storage/sqlite-addon.ts).
const EXTERNAL = ["pg", "sharp", "@vscode/ripgrep", "web-tree-sitter", "tree-sitter-bash", "turndown", "ai", "@ai-sdk/openai-compatible"]

/** Each MCP package and the vendor file that holds it. */
const VENDOR = { "@modelcontextprotocol/server": "mcp-server.cjs", "@modelcontextprotocol/client": "mcp-client.cjs" }
const SUBPATHS = ["", "/stdio"]

const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  // Packages that ship both builds: take the ES module one, which bundles without `require` shims.
  mainFields: ["module", "main"],
  external: EXTERNAL,
  charset: "ascii",
  legalComments: "none",
  // Without whitespace and comments: a start reads and compiles the bundle in proportion to its
  // bytes. Names are not mangled, so stack traces stay readable (keepNames with mangling costs
  // ~15 ms of __name calls on every start).
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: "warning",
  absWorkingDir: root,
}

/**
 * A CommonJS file that is the module wrapper itself, with `import.meta.url` its own file URL.
 * No `import()` is left in it: on Node 20 a script compiled from a V8 code cache loses the
 * callback `import()` needs (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING), so esbuild turns every
 * dynamic import into `require`, which loads the CommonJS builds of the external packages.
 */
const wrapped = {
  format: "cjs",
  supported: { "dynamic-import": false },
  define: { "import.meta.url": "__bundle_url" },
  banner: { js: '(function (exports, require, module, __filename, __dirname) { const __bundle_url = require("node:url").pathToFileURL(__filename).href;' },
  footer: { js: "})" },
}

/** The MCP packages, resolved to the vendor files beside the bundle. */
const vendored = {
  name: "vendored",
  setup: (plugin) =>
    plugin.onResolve({ filter: /^@modelcontextprotocol\/(server|client)(\/stdio)?$/ }, (args) => ({
      path: `./${VENDOR[args.path.replace(/\/stdio$/, "")]}`,
      external: true,
    })),
}

/**
 * `import { Effect, Schema } from "effect"` (the style of src/) read as `import * as Effect from
 * "effect/Effect"` and so on: through the barrel's `export * as` esbuild keeps every module the
 * barrel names; from the modules themselves it keeps what is used. Only for the bundle.
 */
const effectModules = {
  name: "effect-modules",
  setup: (plugin) =>
    plugin.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8")
      const contents = source.replace(/import (type )?\{([^}]*)\} from "effect"/g, (whole, typeOnly, names) => {
        if (typeOnly !== undefined) return whole
        const parts = names.split(",").map((part) => part.trim()).filter((part) => part !== "")
        const values = parts.filter((part) => !part.startsWith("type "))
        if (values.some((name) => !/^[A-Z]\w*$/.test(name) || !existsSync(path.join(root, "node_modules", "effect", "dist", `${name}.js`)))) return whole
        return values.map((name) => `import * as ${name} from "effect/${name}"`).join("; ")
      })
      return { contents, loader: "ts" }
    }),
}

await build({ ...common, ...wrapped, entryPoints: [path.join(root, "src/cli/commands.ts")], outfile: path.join(out, "commands.cjs"), plugins: [vendored, effectModules] })

for (const [name, file] of Object.entries(VENDOR)) {
  const contents = SUBPATHS.map((subpath) => `export * from "${name}${subpath}"`).join("\n")
  await build({ ...common, ...wrapped, stdin: { contents, resolveDir: root, loader: "js" }, outfile: path.join(out, file) })
}

await build({ ...common, format: "esm", entryPoints: [path.join(root, "src/tool/builtin/web/html-worker.ts")], outfile: path.join(out, "html-worker.js") })

/**
 * The executable, CommonJS: an ES module entry costs Node its ES loader, and every ES import of a
 * builtin builds that builtin's facade, reading each lazy export (`node:util` alone loads its
 * MIME parser): ~10–30 ms of every start. Running from source, bin.ts imports commands.js; built,
 * that import never runs.
 */
const executable = (entry, file) =>
  build({
    ...common,
    format: "cjs",
    entryPoints: [path.join(root, entry)],
    outfile: path.join(out, file),
    external: [...EXTERNAL, "./commands.js"],
    define: { "import.meta.url": "__bundle_url" },
    banner: { js: 'const __bundle_url = require("node:url").pathToFileURL(__filename).href;' },
  })

await executable("src/cli/bin.ts", "bin.cjs")
/** The waiting process (src/cli/warm/server.ts), CommonJS like the executable; started by it, never by a person. */
await executable("src/cli/warm/entry.ts", "warm.cjs")

for (const file of ["commands.cjs", ...Object.values(VENDOR)]) {
  const bytes = readFileSync(path.join(out, file))
  const outside = bytes.findIndex((byte) => byte > 0x7f)
  if (outside !== -1) throw new Error(`dist/cli/${file} is not ASCII at byte ${outside}`)
  writeFileSync(path.join(out, `${file}.sha256`), createHash("sha256").update(bytes).digest("hex"))
}

// Every name each MCP entry exports must be in its vendor file (two `export *` that clash drop a name).
for (const [name, file] of Object.entries(VENDOR)) {
  const vendor = { exports: {} }
  const source = readFileSync(path.join(out, file), "latin1")
  // eslint-disable-next-line no-eval -- the vendor file is a function expression: evaluate and call it.
  ;(0, eval)(source)(vendor.exports, createRequire(path.join(out, file)), vendor, path.join(out, file), out)
  for (const subpath of SUBPATHS) {
    const missing = Object.keys(await import(`${name}${subpath}`)).filter((key) => !(key in vendor.exports))
    if (missing.length > 0) throw new Error(`dist/cli/${file} lacks ${missing.join(", ")} of ${name}${subpath}`)
  }
}
