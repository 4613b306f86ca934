/**
 * Builds the web console (web/console, Preact) into dist/console: one minified script, its
 * stylesheet and the page, served by `toolgate serve` at `/` (src/server/console.ts). Everything
 * is bundled: nothing is fetched at run time.
 */
import { copyFileSync, mkdirSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const source = path.join(root, "web", "console")
const out = path.join(root, "dist", "console")
mkdirSync(out, { recursive: true })

await build({
  entryPoints: [path.join(source, "main.tsx")],
  outfile: path.join(out, "app.js"),
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  jsx: "automatic",
  jsxImportSource: "preact",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
  absWorkingDir: root,
})
copyFileSync(path.join(source, "style.css"), path.join(out, "app.css"))
copyFileSync(path.join(source, "index.html"), path.join(out, "index.html"))
