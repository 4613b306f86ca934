/**
 * Other spellings of a command that say what it does (07), each one more form a rule judges: a
 * rule compares spellings, so a deny written one way must see the command written another way.
 * git's (`git send-pack` pushes, BashProgramsGit), docker's (`docker image push` is
 * `docker push`, BashSynonymsDocker), terraform's (`terraform apply -destroy` is
 * `terraform destroy`, BashSynonymsTerraform).
 */
export * as BashSynonyms from "./synonyms.js"

import { BashProgramsGit } from "./programs-git.js"
import { BashSynonymsDocker } from "./synonyms-docker.js"
import { BashSynonymsTerraform } from "./synonyms-terraform.js"

const FAMILIES: ReadonlyArray<(words: ReadonlyArray<string>) => ReadonlyArray<ReadonlyArray<string>>> = [BashProgramsGit.synonyms, BashSynonymsDocker.synonyms, BashSynonymsTerraform.synonyms]

/**
 * Every other spelling of the command `words` (base name first) that the families know.
 * @example BashSynonyms.of(["docker", "image", "push", "img"]) // [["docker", "push", "img"]]
 */
export const of = (words: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> => FAMILIES.flatMap((family) => family(words))
