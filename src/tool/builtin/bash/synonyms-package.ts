/**
 * A package runner's command named by a package spec (07): `npx npm@10 publish` and
 * `corepack npm@10 publish` run the `npm` of npm 10, so the command `npm@10 publish` is also
 * `npm publish`. A rule compares spellings, so an `npm publish *` deny must see it; a package
 * manager so named runs what it runs under its bare name (`corepack pnpm@9 exec npm publish`,
 * BashParseWrapper). A scoped
 * spec's name is already its last part (`@scope/tool@1` is `tool@1`).
 */
export * as BashSynonymsPackage from "./synonyms-package.js"

/** A name with a version or tag after `@` (`npm@10`, `eslint@latest`). */
export const SPEC = /^([^@/]+)@.+$/

/**
 * The bare name of a spec (`npm@10` → `npm`); undefined for a plain name.
 * @example BashSynonymsPackage.bare("pnpm@9") // "pnpm"
 */
export const bare = (name: string): string | undefined => SPEC.exec(name)?.[1]

/**
 * `words` (base name first) with the package's bare name, when the name is a spec; none otherwise.
 * @example BashSynonymsPackage.synonyms(["npm@10", "publish"]) // [["npm", "publish"]]
 */
export const synonyms = (words: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> => {
  const found = bare(words[0] ?? "")
  return found === undefined ? [] : [[found, ...words.slice(1)]]
}
