/**
 * Other spellings of a command that say what it does (07), each one more form a rule judges: a
 * rule compares spellings, so a deny written one way must see the command written another way.
 * git's (`git send-pack` pushes, BashProgramsGit), docker's (`docker image push` is
 * `docker push`, BashSynonymsDocker), kubectl's (`kubectl create deploy` is
 * `kubectl create deployment`, BashSynonymsKubectl), terraform's (`terraform apply -destroy` is
 * `terraform destroy`, BashSynonymsTerraform), pip's (`pip3`, `python3 -m pip`, BashSynonymsPip), a package spec's (`npx npm@10 publish` runs
 * `npm publish`, BashSynonymsPackage), make's goals (`make all install` runs `make install`,
 * BashSynonymsMake), a versioned name's (`perl5.36.0 -e` is `perl -e`, BashProgramNames).
 * A spelling's own leading options are dropped as for any command (`python3 -m pip --isolated
 * install x` is `pip install x` too, BashParseOperation).
 */
export * as BashSynonyms from "./synonyms.js"

import { BashArity } from "./arity.js"
import { BashProgramNames } from "./names.js"
import { BashParseOperation } from "./parse-operation.js"
import { BashParseWrapper } from "./parse-wrapper.js"
import { BashPrograms } from "./programs.js"
import { BashProgramsGit } from "./programs-git.js"
import { BashSynonymsDocker } from "./synonyms-docker.js"
import { BashSynonymsKubectl } from "./synonyms-kubectl.js"
import { BashSynonymsMake } from "./synonyms-make.js"
import { BashSynonymsPackage } from "./synonyms-package.js"
import { BashSynonymsPip } from "./synonyms-pip.js"
import { BashSynonymsTerraform } from "./synonyms-terraform.js"

/** A family's spellings of a command; undefined when it has too many to list (the command is then opaque). */
type Family = (words: ReadonlyArray<string>) => ReadonlyArray<ReadonlyArray<string>> | undefined

/**
 * `perl5.36.0 -e …` is also `perl -e …`: the bare name of a versioned or flavoured one when a
 * table reads the bare name and not the one written (`python3` stays `python3`).
 */
const bareName: Family = (words) => {
  const [name = "", ...rest] = words
  const known = (program: string) => BashParseWrapper.knows(program) || BashPrograms.TABLE.has(program)
  const bare = BashProgramNames.stem(name)
  if (bare === undefined || known(name) || !known(bare)) return []
  const spelled = [bare, ...rest]
  const more = of(spelled)
  return more === undefined ? undefined : [spelled, ...more]
}

const FAMILIES: ReadonlyArray<Family> = [
  bareName,
  BashProgramsGit.synonyms,
  BashSynonymsDocker.synonyms,
  BashSynonymsKubectl.synonyms,
  BashSynonymsTerraform.synonyms,
  BashSynonymsPip.synonyms,
  BashSynonymsPackage.synonyms,
  BashSynonymsMake.synonyms,
]

/**
 * Every other spelling of the command `words` (base name first) that the families know; undefined
 * when one family has too many to list.
 * @example BashSynonyms.of(["docker", "image", "push", "img"]) // [["docker", "push", "img"]]
 */
export const of = (words: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> | undefined => {
  const found = FAMILIES.map((family) => family(words))
  return found.some((list) => list === undefined) ? undefined : found.flatMap((list) => list ?? [])
}

/**
 * The other spellings of `words` (as rendered: a word that is not plain may expand) and each one
 * without its leading options; undefined when those options cannot be read so (a word among them
 * may expand) or there are too many: the caller makes the command opaque.
 * @example BashSynonyms.spellings(["python3", "-m", "pip", "--isolated", "install", "x"]) // [["pip", "--isolated", "install", "x"], ["pip", "install", "x"]]
 */
export const spellings = (words: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> | undefined => {
  const found: Array<ReadonlyArray<string>> = []
  const spelled = of(words)
  if (spelled === undefined) return undefined
  for (const spelling of spelled) {
    const operations = BashParseOperation.forms(spelling, spelling, (index) => BashArity.PLAIN.test(spelling[index] as string))
    if (operations === undefined) return undefined
    found.push(spelling, ...operations)
  }
  return found
}
